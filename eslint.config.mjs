// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'examples/**', 'test/fixtures/repos/**', 'test/fixtures/test-reports/**', '.vscode-test/**', 'media/**/*.min.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { console: 'readonly', process: 'readonly', Buffer: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', fetch: 'readonly', TextEncoder: 'readonly', TextDecoder: 'readonly', AbortController: 'readonly', __dirname: 'readonly', require: 'readonly', module: 'writable' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The core/host boundary: nothing under src/core may reach VS Code.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [
          { name: 'vscode', message: 'src/core must not import vscode: declare a host interface in src/core and implement it in src/vscode.' },
          // The core does no I/O of its own: files and git go through the Host (src/core/host.ts), served by src/host/disk.ts.
          ...['fs', 'node:fs', 'fs/promises', 'node:fs/promises', 'child_process', 'node:child_process'].map((name) => ({
            name,
            message: `src/core must not import ${name}: go through the Host (src/core/host.ts: host(), hostFs); the disk host is src/host/disk.ts.`,
          })),
        ],
        patterns: [{ group: ['**/vscode/**', '../vscode', '../../vscode'], message: 'src/core must not import from src/vscode.' }],
      }],
      'no-restricted-syntax': ['error', {
        selector: "CallExpression[callee.name='require'][arguments.0.value='vscode']",
        message: 'src/core must not require vscode.',
      }, {
        selector: "CallExpression[callee.name='require'][arguments.0.value=/^(node:)?(fs|fs\\/promises|child_process)$/]",
        message: 'src/core must not require fs or child_process: go through the Host (src/core/host.ts).',
      }, {
        selector: "ImportExpression[source.value=/^(node:)?(fs|fs\\/promises|child_process)$/]",
        message: 'src/core must not import fs or child_process: go through the Host (src/core/host.ts).',
      }],
    },
  },
  {
    // The view model: the pure code the panel and the host share. It reads the engine's types and nothing else of it.
    files: ['src/view-model/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        paths: [{ name: 'vscode', message: 'src/view-model is pure: no vscode.' }],
        patterns: [
          { group: ['**/core/**', '../core'], allowTypeImports: true, message: 'src/view-model may import only types from src/core (import type).' },
          { group: ['**/vscode/**', '**/webview/**', '**/cli/**', 'node:*'], message: 'src/view-model imports nothing but src/core types and itself.' },
        ],
      }],
    },
  },
  {
    // The webview bundle: only the view model, the protocol's types and its own files, never the engine.
    files: ['src/webview/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { regex: '^(\\.\\./(?!view-model(/|$)|vscode/protocol$)|[^.])', message: 'src/webview may import only src/view-model and src/vscode/protocol.' },
        ],
      }],
    },
  },
  {
    // The engine may use the view model's number formatter (a leaf with no imports) and nothing else of it.
    files: ['src/core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['**/view-model/*', '!**/view-model/format'], message: 'src/core holds no panel concepts: only src/view-model/format may be imported.' }],
      }],
    },
  },
  {
    files: ['media/**/*.js'],
    languageOptions: { globals: { window: 'readonly', document: 'readonly', acquireVsCodeApi: 'readonly', navigator: 'readonly' } },
  },
);
