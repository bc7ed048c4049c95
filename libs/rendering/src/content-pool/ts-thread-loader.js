// Loaded with `--require` into a ThreadPool thread when its task module is TypeScript (jest runs
// the sources; dist/ needs none of this): compiles each .ts file with swc, as jest.unit.config.js
// does, and resolves the @app/* paths of tsconfig.json.
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { transformSync } = require('@swc/core');
const tsconfigPaths = require('tsconfig-paths');

const tsconfig = tsconfigPaths.loadConfig(join(__dirname, '..', '..', '..', '..'));
tsconfigPaths.register({ baseUrl: tsconfig.absoluteBaseUrl, paths: tsconfig.paths });

const options = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

require.extensions['.ts'] = (module, filename) => {
  module._compile(transformSync(readFileSync(filename, 'utf8'), { ...options, filename }).code, filename);
};
