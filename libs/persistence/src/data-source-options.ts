import { DataSourceOptions, EntitySchema } from 'typeorm';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/**
 * One place that turns DATABASE_URL into TypeORM options, for the apps, the CLI and tests. `entities`
 * adds the tables other libraries own (libs/jobs): this library cannot import them, as they build on
 * its columns. The apps need not pass them: their modules register them (autoLoadEntities).
 */
export function dataSourceOptions(
  databaseUrl: string,
  poolSize = 10,
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: (Function | EntitySchema)[] = [],
): DataSourceOptions {
  return {
    type: 'mariadb',
    url: databaseUrl,
    charset: 'utf8mb4_unicode_ci',
    timezone: 'Z',
    entities: [...ENTITIES, ...entities],
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    migrationsRun: false,
    logging: ['error'],
    extra: { connectionLimit: poolSize, decimalNumbers: true },
  };
}
