// `npm run test:resilience`: the fault, abuse and load suite (test/resilience), on the same
// transforms, global setup and reporters as the main suite.
const base = require('./jest.config');

module.exports = {
  ...base,
  testRegex: 'test/resilience/.*\\.resilience-spec\\.ts$',
  testTimeout: 600000,
};
