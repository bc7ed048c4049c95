// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';
import prettier from 'eslint-config-prettier';

const LIBS = [
  'config',
  'common',
  'persistence',
  'auth',
  'queue-contracts',
  'queues',
  'rendering',
  'net-guard',
  'webhooks',
  'jobs',
  'sessions',
  'result-cache',
  'metrics',
  'extract',
  'mcp',
  'site',
];

/** A lib may import only the libs listed here (docs/architecture.md, Boundaries). */
const LIB_DEPENDENCIES = {
  config: [],
  common: [],
  'queue-contracts': [],
  queues: ['config', 'common', 'queue-contracts'],
  persistence: ['config', 'common', 'queue-contracts'],
  'net-guard': ['config', 'common'],
  rendering: ['config', 'common', 'net-guard', 'queue-contracts', 'extract'],
  auth: ['config', 'common', 'persistence'],
  // The job tables are read and written only here (test/rules/job-sql-owner.spec.ts holds the others to it).
  jobs: ['config', 'common', 'persistence', 'queue-contracts', 'auth'],
  // The sessions table likewise, here only.
  sessions: ['config', 'common', 'persistence', 'queue-contracts'],
  // Cached page results in Redis, here only.
  'result-cache': ['config', 'common', 'persistence', 'queue-contracts'],
  webhooks: ['config', 'common', 'persistence', 'net-guard', 'queue-contracts', 'queues', 'jobs'],
  // Prometheus lives here and in the apps; other libs expose stats or listeners the apps turn into series.
  metrics: [],
  // Main content from a parsed document: no Nest, no config, no I/O.
  extract: [],
  // The MCP tools over a ScraperBackend (the API's services, or the CLI's): types from these only.
  mcp: ['queue-contracts', 'jobs'],
  // A site's own files and URLs: robots.txt, sitemaps, crawl scope, normalisation, the map's listing.
  site: ['common', 'net-guard', 'queue-contracts'],
};

const appsNeverImportApps = {
  group: ['**/apps/api/**', '**/apps/worker/**', '**/api/src/**', '**/worker/src/**'],
  message: 'Apps never import apps; move shared code into a lib.',
};

/** Bull is known in one folder, so a move to another queue library touches only that folder. */
const bullOnlyInTheAdapter = {
  regex: '^(bull|@nestjs/bull)(/.*)?$',
  message: 'Only libs/queues/src/bull knows Bull; use QueueAdapter or JobProducer from @app/queues.',
};

/** What a lib may not import: apps, libs it does not depend on, Prometheus (but libs/metrics), itself. */
function libPatterns(lib) {
  return [
    appsNeverImportApps,
    {
      group: LIBS.filter((l) => l !== lib && !LIB_DEPENDENCIES[lib].includes(l)).map((l) => `@app/${l}`),
      message: `libs/${lib} may import only: ${LIB_DEPENDENCIES[lib].join(', ') || 'no other lib'}.`,
    },
    ...(lib === 'metrics'
      ? []
      : [{ group: ['prom-client'], message: 'Only libs/metrics and the apps know Prometheus.' }]),
    { group: [`@app/${lib}`], message: 'Inside a lib, import its own files relatively.' },
  ];
}

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '**/*.js',
      '**/*.cjs',
      '**/*.mjs',
      'test/fixtures/site/static/**',
      // The dashboard's browser modules are linted, by the block for them below.
      '!apps/api/src/dashboard/public/**/*.js',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { import: importPlugin },
    settings: { 'import/resolver': { typescript: true, node: true } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      'no-restricted-imports': ['error', { patterns: [appsNeverImportApps, bullOnlyInTheAdapter] }],
    },
  },
  // The API never launches a browser: it may not import the rendering lib.
  {
    files: ['apps/api/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            appsNeverImportApps,
            bullOnlyInTheAdapter,
            {
              group: [
                '@app/rendering',
                '@app/rendering/*',
                'playwright-core',
                'puppeteer-core',
                'puppeteer-cluster',
              ],
              message: 'The API has no browser; send work through the render queue.',
            },
          ],
        },
      ],
    },
  },
  ...LIBS.map((lib) => ({
    files: [`libs/${lib}/**/*.ts`],
    rules: { 'no-restricted-imports': ['error', { patterns: [bullOnlyInTheAdapter, ...libPatterns(lib)] }] },
  })),
  {
    files: ['libs/queues/src/bull/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: libPatterns('queues') }] },
  },
  // Tests may use any lib and may be loose with types of what they assert on.
  {
    files: [
      '**/*.spec.ts',
      '**/*.int-spec.ts',
      '**/*.e2e-spec.ts',
      '**/*.corpora-spec.ts',
      'test/**/*.ts',
      'bench/**/*.ts',
    ],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  // The dashboard: browser ES modules with no build step, run under a CSP that allows no eval, and
  // holding a key in sessionStorage, so they never turn a string into markup or code.
  {
    files: ['apps/api/src/dashboard/public/**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        [
          'confirm',
          'document',
          'fetch',
          'getSelection',
          'history',
          'location',
          'navigator',
          'Node',
          'performance',
          'sessionStorage',
          'setTimeout',
          'URL',
          'URLSearchParams',
          'window',
        ].map((name) => [name, 'readonly']),
      ),
    },
    rules: {
      'no-undef': 'error',
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
      'import/no-cycle': 'error',
      'import/no-unresolved': 'error',
      'import/named': 'error',
      'import/extensions': ['error', 'always'],
      'no-restricted-properties': [
        'error',
        ...[
          'innerHTML',
          'outerHTML',
          'insertAdjacentHTML',
          'write',
          'writeln',
          'createContextualFragment',
        ].map((property) => ({ property, message: 'Write text (textContent, createElement), never HTML.' })),
      ],
    },
  },
  { files: ['**/*.ts'], rules: { 'import/no-cycle': ['error', { maxDepth: 3, ignoreExternal: true }] } },
  prettier,
);
