// Lint: typescript-eslint's recommended rules, plus the type-aware ones that catch what types alone do not (a
// promise nobody awaits or catches, a promise where a callback's result is ignored).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/**', 'out/**', 'node_modules/**', '.combee-build/**', '.test-artifacts/**', '**/*.js', '**/*.mjs'],
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
);
