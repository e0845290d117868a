import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTs from 'eslint-config-next/typescript';

const config = [
  ...nextVitals,
  ...nextTs,
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
    // The service core runs in tests, the CLI and workers: it must never depend on Next.js.
    files: ['lib/**/*.ts', 'lib/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: ['next', 'next/*', '@/app/*', '@/components/*'] },
      ],
    },
  },
  {
    // The server process hosts both: it hands /api to the API app and the rest to Next.js.
    files: ['lib/server/http-server.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Tests read loosely typed JSON responses and assert on their shape.
    files: ['**/*.test.ts', 'lib/testing/**', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
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
