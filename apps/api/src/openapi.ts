/**
 * The API's second entry point (`npm run openapi`): writes the OpenAPI document built from the
 * controllers and DTOs to docs/openapi.json, or with --check fails if the committed file differs
 * (CI: `npm run lint`). The app is built in Nest's preview mode, the module graph without
 * providers, so no database or Redis is needed.
 */
import 'reflect-metadata';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { format, resolveConfig } from 'prettier';
import { loadApiEnv } from '@app/config';
import { AppModule } from './app.module';
import { buildOpenApiDocument } from './common/openapi';

/** The repository root, from apps/api/src or from its compiled copy under dist/. */
function repositoryRoot(dir = __dirname): string {
  return existsSync(resolve(dir, 'package.json')) ? dir : repositoryRoot(dirname(dir));
}

const FILE = resolve(repositoryRoot(), 'docs', 'openapi.json');

/** The committed document's text: JSON as Prettier formats it (`prettier --check .` covers docs/). */
async function renderOpenApiDocument(): Promise<string> {
  // Placeholder secrets: preview mode connects to nothing and signs nothing.
  const env = loadApiEnv({
    NODE_ENV: 'test',
    KEY_HASH_SECRET: '0'.repeat(64),
    SECRETS_ENCRYPTION_KEY: '0'.repeat(64),
  });
  const app = await NestFactory.create(AppModule.register({ env }), new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    const json = JSON.stringify(buildOpenApiDocument(app));
    return format(json, { ...(await resolveConfig(FILE)), parser: 'json', filepath: FILE });
  } finally {
    await app.close();
  }
}

async function main(): Promise<void> {
  const text = await renderOpenApiDocument();
  if (!process.argv.includes('--check')) {
    writeFileSync(FILE, text);
    console.log(`openapi: wrote ${FILE}`);
    return;
  }
  let committed = '';
  try {
    committed = readFileSync(FILE, 'utf8');
  } catch {
    // missing: reported below as out of date
  }
  if (committed !== text) {
    console.error(
      'openapi: docs/openapi.json is out of date with the controllers and DTOs; run `npm run openapi` and commit it',
    );
    process.exit(1);
  }
  console.log('openapi: docs/openapi.json matches the app');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
