import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import tseslint from 'typescript-eslint';

/**
 * The layers of lib/, bottom first (docs/development.md#layer-order says why each sits where it
 * does). A file may import its own layer and the layers below it, never one above: a new import
 * against the order fails `npm run lint`. A layer is folders, or a file or folder carved out of
 * its folder to sit elsewhere (the metrics registry every layer records to, UCP's HTTP routes).
 * Every entry of lib/ must be in one (lib/testing/layers.test.ts checks it).
 */
export const LAYERS = [
  ['lib/config'],
  ['lib/contract'],
  ['lib/catalog/decimal.ts'],
  ['lib/errors.ts'],
  ['lib/log'],
  ['lib/metrics/registry.ts'],
  ['lib/net'],
  ['lib/db'],
  ['lib/sql'],
  ['lib/server/lifecycle.ts'],
  ['lib/auth'],
  ['lib/embeddings'],
  ['lib/platforms'],
  ['lib/stores'],
  ['lib/profiles'],
  ['lib/images'],
  ['lib/search'],
  ['lib/orders'],
  ['lib/ucp'],
  ['lib/catalog'],
  ['lib/api-client'],
  ['lib/mcp'],
  ['lib/metrics'],
  ['lib/http', 'lib/ucp/http', 'lib/metrics/http.ts'],
  ['lib/store-sim'],
  ['lib/demo'],
  ['lib/server'],
  ['lib/cli'],
  ['lib/testing'],
  ['lib/tooling'],
];

/** Tests and their fixtures may import any layer: they stand above all of them. */
const TESTS = ['**/*.test.ts', 'lib/**/tests/**'];

const NEXT_APP_ZONE = {
  target: './lib',
  from: ['./app', './components'],
  message: 'lib/ is the service: it never imports the Next.js app.',
};

const isFile = (layerPath) => /\.tsx?$/.test(layerPath);
const inside = (outer, layerPath) => layerPath.startsWith(`${outer}/`);
const layerOf = (layerPath) => LAYERS.findIndex((paths) => paths.includes(layerPath));

/** The zones that keep a file of layer `level` from importing any layer above it. */
function upwardZones(layerPath, level) {
  return LAYERS.slice(level + 1).flatMap((paths) =>
    paths.map((from) => ({
      target: './lib',
      from: `./${from}`,
      except: [
        // A file carved out of `from` into this layer or one below stays importable.
        ...LAYERS.flat()
          .filter((other) => inside(from, other) && layerOf(other) <= level)
          .map((other) => `./${other.slice(from.length + 1)}`),
      ],
      message: `${layerPath} sits below ${from} in the layer order (docs/development.md#layer-order).`,
    })),
  );
}

/** One config per layer path: its files, less those carved out of it, get its zones. */
const layerConfigs = LAYERS.flatMap((paths, level) =>
  paths.map((layerPath) => ({
    files: isFile(layerPath) ? [layerPath] : [`${layerPath}/**/*.ts`, `${layerPath}/**/*.tsx`],
    ignores: [
      ...TESTS,
      ...LAYERS.flat()
        .filter((other) => inside(layerPath, other))
        .flatMap((other) => (isFile(other) ? [other] : [`${other}/**`])),
    ],
    rules: {
      'import/no-restricted-paths': [
        'error',
        { zones: [NEXT_APP_ZONE, ...upwardZones(layerPath, level)] },
      ],
    },
  })),
);

const typeChecked = tseslint.configs.recommendedTypeChecked.map(({ plugins: _, ...c }) => c);

const config = [
  ...nextVitals,
  ...nextTs,
  ...typeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  { files: ['**/*.mjs', '**/*.js'], ...tseslint.configs.disableTypeChecked },
  {
    ignores: [
      'node_modules/**',
      '.next/**',
      'data/**',
      'next-env.d.ts',
      'test-results/**',
      'playwright-report/**',
      'artifacts/**',
    ],
  },
  {
    // The service core runs in tests, the CLI and workers: it must never depend on Next.js, by
    // package name or by path (an alias or a relative path both resolve to the file).
    files: ['lib/**/*.ts', 'lib/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['next', 'next/*'] }],
      'import/no-restricted-paths': ['error', { zones: [NEXT_APP_ZONE] }],
    },
  },
  // Folders depend one way: benchmarks, evaluation and test fixtures sit on top, so the
  // service never imports them either.
  ...layerConfigs,
  {
    // The server process hosts both: it hands /api to the API app and the rest to Next.js.
    files: ['lib/server/http-server.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Tests read loosely typed JSON responses and assert on their shape: `any` is what a JSON
    // body is there, and the assertions are the type check. Service code gets every rule.
    files: ['**/*.test.ts', 'lib/**/tests/**', 'lib/testing/**', 'e2e/**'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { varsIgnorePattern: '^_', argsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
];

export default config;
