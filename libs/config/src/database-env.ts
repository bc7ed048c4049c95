import { IsIn, Matches } from 'class-validator';
import { Doc } from './env-doc';

/** What reaching the stores takes: enough for the migration runner. */
export class DatabaseEnv {
  @Doc('`production` requires every secret from the environment')
  @IsIn(['development', 'test', 'production'])
  NODE_ENV: 'development' | 'test' | 'production' = 'development';

  @Doc('pino level; JSON logs, keys and secrets redacted')
  @IsIn(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
  LOG_LEVEL = 'info';

  @Matches(/^mysql:\/\/[^/]+\/[A-Za-z0-9_]+(\?.*)?$/, {
    message: 'must look like mysql://user[:password]@host:port/database',
  })
  @Doc('MySQL/MariaDB; the database is created if missing')
  DATABASE_URL = 'mysql://root@127.0.0.1:3306/scraper';
}
