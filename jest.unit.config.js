// `npm run test:unit`: the unit tests (*.spec.ts) alone, quickly: compiled by swc, which strips types
// without checking them (tsc in `npm run build` and ESLint do that), and without the main suite's
// global setup, since unit tests touch no database, Redis, browser or build output.
const base = require('./jest.config');

/** swc with what tsconfig.json sets for decorators (class-validator, Nest) and class fields. */
const swc = (syntax) => [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax, decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

const { globalSetup, globalTeardown, ...withoutSetup } = base;

module.exports = {
  ...withoutSetup,
  testRegex: '.*\\.spec\\.ts$',
  // The same files as the main suite transforms (TypeScript, and the dependencies shipped only as ES
  // modules), each through swc.
  transform: Object.fromEntries(
    Object.keys(base.transform).map((pattern) => [
      pattern,
      swc(pattern.endsWith('ts$') ? 'typescript' : 'ecmascript'),
    ]),
  ),
};
