import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // errorMessage is free text (spec §7.1): compare or search it and you have built control flow on prose.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/main/sandbox/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "BinaryExpression > MemberExpression[property.name='errorMessage']",
          message: 'Never branch on errorMessage text.',
        },
        {
          selector:
            "CallExpression > MemberExpression.callee[property.name=/^(includes|startsWith|endsWith|match|matchAll|indexOf|search|localeCompare)$/] > MemberExpression.object[property.name='errorMessage']",
          message: 'Never branch on errorMessage text.',
        },
        {
          selector: "SwitchStatement > MemberExpression.discriminant[property.name='errorMessage']",
          message: 'Never branch on errorMessage text.',
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', 'electron', 'node:*'],
              message: 'The renderer never imports main, Electron or Node.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/main/**', '**/renderer/**', 'electron', 'node:*'],
              message: 'shared/ is pure: no main, renderer, Electron or Node.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/main/**/*.ts'],
    ignores: ['src/main/index.ts', 'src/main/secrets/safe-storage.ts', 'src/main/shell/electron-*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'Only main/index.ts and its thin adapters import electron.' }],
        },
      ],
    },
  },
)
