import { DynamicModule, Global, Module } from '@nestjs/common';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'dotenv';
import { ApiEnv, DatabaseEnv, SharedEnv, WorkerEnv } from './env.schema';
import { parseEnv } from './parse-env';

/**
 * The process environment, with a developer's git-ignored .env.local underneath it (never in
 * test or production, so those see exactly what they were given).
 */
export function readEnvironment(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const file = resolve(process.cwd(), '.env.local');
  if (env.NODE_ENV === 'test' || env.NODE_ENV === 'production' || !existsSync(file)) return env;
  return { ...parse(readFileSync(file)), ...env };
}

export const loadApiEnv = (env = readEnvironment()) => parseEnv(ApiEnv, env);
export const loadWorkerEnv = (env = readEnvironment()) => parseEnv(WorkerEnv, env);
export const loadSharedEnv = (env = readEnvironment()) => parseEnv(SharedEnv, env);
export const loadDatabaseEnv = (env = readEnvironment()) => parseEnv(DatabaseEnv, env);

/** Registers the app's validated env under its class and under SharedEnv for the libs. */
@Global()
@Module({})
export class ConfigModule {
  static forApi(env: ApiEnv = loadApiEnv()): DynamicModule {
    return ConfigModule.register(ApiEnv, env);
  }

  static forWorker(env: WorkerEnv = loadWorkerEnv()): DynamicModule {
    return ConfigModule.register(WorkerEnv, env);
  }

  static forShared(env: SharedEnv = loadSharedEnv()): DynamicModule {
    return ConfigModule.register(SharedEnv, env);
  }

  private static register<T extends SharedEnv>(token: new () => T, env: T): DynamicModule {
    const providers =
      (token as unknown) === SharedEnv
        ? [{ provide: SharedEnv, useValue: env }]
        : [
            { provide: token, useValue: env },
            { provide: SharedEnv, useExisting: token },
          ];
    return { module: ConfigModule, providers, exports: providers.map((p) => p.provide) };
  }
}
