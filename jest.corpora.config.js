// `npm run test:corpora`: the tests over the development corpora (*.corpora-spec.ts), on the main
// suite's transforms, global setup and reporters. The corpora are not in the repository: they are
// read from CORPORA_DIR (relative to the repository; by default ../shared/corpora, which sits beside
// the clone in CI). Without that folder the suite is left out, and says so: no test runs or passes.
const { existsSync } = require('node:fs');
const path = require('node:path');
const base = require('./jest.config');

const corpora = path.resolve(__dirname, process.env.CORPORA_DIR ?? '../shared/corpora');
const present = existsSync(corpora);
if (!present) {
  console.log(
    `\ncorpora suite LEFT OUT: ${corpora} does not exist (set CORPORA_DIR to the corpora folder)\n`,
  );
}

module.exports = {
  ...base,
  // Without the corpora nothing matches, and jest exits 0 with "No tests found".
  testRegex: present ? '.*\\.corpora-spec\\.ts$' : '^$',
  passWithNoTests: !present,
};
