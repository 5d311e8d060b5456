// Lint: typescript-eslint's recommended rules, plus the type-aware ones that catch what types alone do not (a
// promise nobody awaits or catches, a promise where a callback's result is ignored). Scripts (.mjs: the build, the
// benchmarks' and tests' runners) are checked JavaScript in tsconfig.scripts.json, linted by the same rules.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/**', 'out/**', 'node_modules/**', '.combee-build/**', '.test-artifacts/**', '**/*.js'],
  },
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // a leading underscore says "deliberately unused" (a destructured field left out, an argument of a fixed signature)
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // the project service finds a file's project by the nearest tsconfig.json; the scripts have their own
    files: ['**/*.mjs', 'scripts/page-globals.d.ts'],
    languageOptions: {
      sourceType: 'module',
      parserOptions: {
        projectService: false,
        project: './tsconfig.scripts.json',
        tsconfigRootDir: import.meta.dirname,
      },
    },
  },
);
