// Lint: typescript-eslint's recommended rules, plus the type-aware ones that catch what types alone do not (a
// promise nobody awaits or catches, a promise where a callback's result is ignored). Scripts (.mjs: the build, the
// benchmarks' and tests' runners) are checked JavaScript in tsconfig.scripts.json, linted by the same rules.
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';
import { coreLayerZones } from './scripts/layerZones.mjs';

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
    // the core's layers (scripts/core-layers.json): an import across them is an error as it is typed
    files: ['src/core/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.json'] })] },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: import.meta.dirname, zones: coreLayerZones() }],
      'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/core never imports vscode' }] }],
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
