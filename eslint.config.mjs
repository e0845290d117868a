import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';
import tseslint from 'typescript-eslint';

/** Code that serves no request: benchmarks and relevance evaluation, test fixtures and helpers. */
const TOOLING = ['lib/tooling/**', 'lib/testing/**'];

const NEXT_APP_ZONE = {
  target: './lib',
  from: ['./app', './components'],
  message: 'lib/ is the service: it never imports the Next.js app.',
};

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
      'import/no-restricted-paths': [
        'error',
        {
          zones: [NEXT_APP_ZONE],
        },
      ],
    },
  },
  {
    // The service never depends on its tooling: benchmarks, evaluation and test fixtures may
    // import the service, never the other way round.
    files: ['lib/**/*.ts'],
    ignores: [...TOOLING, '**/*.test.ts', 'lib/**/tests/**'],
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            NEXT_APP_ZONE,
            {
              target: './lib',
              from: TOOLING.map((glob) => `./${glob.replace(/\/\*\*$/, '')}`),
              message: 'Service code in lib/ must not import tooling (bench, eval, test fixtures).',
            },
          ],
        },
      ],
    },
  },
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
