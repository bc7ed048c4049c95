// One jest run covers unit (*.spec.ts), integration (*.int-spec.ts) and e2e (*.e2e-spec.ts) tests;
// globalSetup creates a throwaway database and Redis prefix for the whole run.
const { pathsToModuleNameMapper } = require('ts-jest');
const { compilerOptions } = require('./tsconfig.json');

// linkedom's dependencies, and @fastify/static's content-disposition, ship only as ES modules,
// which jest's CommonJS runtime cannot load: transpile just those to CommonJS.
const ESM_ONLY = [
  'boolbase',
  'content-disposition',
  'css-select',
  'css-what',
  'dom-serializer',
  'domelementtype',
  'domhandler',
  'domutils',
  'entities',
  'htmlparser2',
  'nth-check',
];

module.exports = {
  rootDir: '.',
  moduleFileExtensions: ['js', 'json', 'ts'],
  testRegex: '.*\\.(spec|int-spec|e2e-spec)\\.ts$',
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  transform: {
    '^.+\\.ts$': 'ts-jest',
    [`/node_modules/(${ESM_ONLY.join('|')})/.+\\.js$`]: [
      'ts-jest',
      { tsconfig: { allowJs: true, module: 'commonjs', isolatedModules: true } },
    ],
  },
  // Also where npm nested them (@fastify/static/node_modules/content-disposition).
  transformIgnorePatterns: [`/node_modules/(?!(.*/node_modules/)?(${ESM_ONLY.join('|')})/)`],
  moduleNameMapper: pathsToModuleNameMapper(compilerOptions.paths, { prefix: '<rootDir>/' }),
  testEnvironment: 'node',
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60000,
  // A handle left open by a test file (a browser a crashed engine relaunched) must not hold CI
  // until its time limit: the run ends when its tests have. The browser tests assert themselves
  // that no Chromium process of theirs outlives them.
  forceExit: true,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
