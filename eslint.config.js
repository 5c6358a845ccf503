// Lint rules, including the one-way layering of src/ (see docs/architecture.md).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import local from './eslint-rules/index.js';

// Lower layers first. A file in layer N may import only from layers < N (and its own).
const layers = [
  'jsonrpc',
  'protocol',
  'schema',
  'server',
  'client',
  'transports',
  'state',
  'policy',
  'tools',
  'llm',
  'gateway',
  'cli',
];
// server and client are siblings: neither may import the other.
const forbiddenFor = (layer) => {
  const higher = layers.slice(layers.indexOf(layer) + 1);
  return layer === 'client' ? [...higher, 'server'] : higher;
};

const layering = layers
  .filter((layer) => forbiddenFor(layer).length > 0)
  .map((layer) => ({
    files: [`src/${layer}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: forbiddenFor(layer).flatMap((l) => [`**/${l}`, `**/${l}/**`]),
              message: `Layering: src/${layer} must not import from a higher layer (${layers.join(' → ')}).`,
            },
          ],
        },
      ],
    },
  }));

export default tseslint.config(
  {
    ignores: ['dist/**', 'node_modules/**', 'bench/results/**', '.conformance/**', 'conformance-results/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        setImmediate: 'readonly',
        queueMicrotask: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        structuredClone: 'readonly',
        fetch: 'readonly',
        Request: 'readonly',
        Response: 'readonly',
        Headers: 'readonly',
        ReadableStream: 'readonly',
        ByteLengthQueuingStrategy: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-eval': 'error',
      'no-new-func': 'error',
    },
  },
  ...layering,
  // No import cycle among src/ files, type-only imports included (eslint-rules/no-import-cycle.js). The plugin is
  // registered for every file so a config built on this one (the rule's test) can turn the rule on elsewhere.
  { plugins: { local } },
  { files: ['src/**/*.ts'], rules: { 'local/no-import-cycle': ['error', { root: 'src' }] } },
  {
    files: [
      'test/**/*.ts',
      'examples/**/*.ts',
      'bench/**/*.{ts,mjs,js}',
      'scripts/**/*.{mjs,js}',
      'bin/**/*.js',
    ],
    rules: { 'no-console': 'off' },
  },
);
