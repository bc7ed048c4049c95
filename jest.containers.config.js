// `npm run test:containers` (scripts/test-containers.sh builds both images first): the images under
// podman, on the same transforms and reporters as the main suite; the run's database is migrated by
// the API image (test/container/global-setup.ts).
const base = require('./jest.config');

module.exports = {
  ...base,
  testRegex: 'test/container/.*\\.container-spec\\.ts$',
  globalSetup: '<rootDir>/test/container/global-setup.ts',
  testTimeout: 300000,
};
