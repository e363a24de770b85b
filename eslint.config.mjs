import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import importX from 'eslint-plugin-import-x'
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript'

/*
 * Layers (issue #29; docs/adr/draft-w29arrows-layers.md). Paths are relative to this file, so the rules hold
 * whatever directory ESLint runs from. Storage is the ledger (src/main/ledger: model, ports, sqlite, pg, team);
 * features are the services above it; tracking is the kind-free engine the features plug their kinds into.
 */
const here = import.meta.dirname
const STORAGE = ['src/main/ledger']
const FEATURES = [
  'src/main/app',
  'src/main/deposits',
  'src/main/index.ts',
  'src/main/ipc',
  'src/main/journal',
  'src/main/notifications',
  'src/main/payees',
  'src/main/profiles',
  'src/main/receipts',
  'src/main/records',
  'src/main/runs',
  'src/main/sandbox',
  'src/main/shell',
  'src/main/wallet',
  'src/main/withdrawals',
]

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
  {
    // Every import resolved as TypeScript resolves it (both tsconfig projects), so a zone sees through `../ledger`.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these the rules resolve a .ts import but never read it: no-cycle would find nothing.
      'import-x/extensions': ['.ts', '.tsx'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: [`${here}/tsconfig.node.json`, `${here}/tsconfig.web.json`],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      // No run-time import circle (type-only imports are erased and do not count; test/build/import-cycles.test.ts
      // covers those). No maxDepth: the whole of src/ costs about 2 s of CPU (docs/adr/draft-w29arrows-layers.md).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    files: STORAGE.map((d) => `${d}/**/*.ts`),
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: here,
          zones: [
            {
              target: STORAGE,
              from: [...FEATURES, 'src/main/tracking'],
              message: 'Storage (the ledger) imports nothing above it: move the rule down or pass it in.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/main/tracking/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: here,
          zones: [
            {
              target: 'src/main/tracking',
              from: FEATURES,
              message:
                'tracking/ is the kind-free engine: features plug their kinds into it, never the reverse.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: here,
          zones: [
            {
              target: 'src/shared',
              from: ['src/main', 'src/renderer', 'src/preload'],
              message: 'shared/ is the contract both sides read: it imports neither side.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/preload/**/*.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: here,
          zones: [
            {
              target: 'src/preload',
              from: ['src/main', 'src/renderer'],
              message:
                'The preload is the bridge only: the contract (src/shared) and electron, nothing else.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: here,
          zones: [
            {
              target: 'src/renderer',
              from: ['src/main', 'src/preload'],
              message: 'The renderer reaches main only through window.treasury (src/shared/contract.ts).',
            },
          ],
        },
      ],
    },
  },
)
