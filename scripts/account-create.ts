// `npm run account:create -- --email E --plan P`: an account with one production and one sandbox key.
import 'reflect-metadata';
import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { DynamicModule, Module } from '@nestjs/common';
import { ConfigError, ConfigModule } from '@app/config';
import { DomainError, explainStartupFailure } from '@app/common';
import { PersistenceModule, RedisModule } from '@app/persistence';
import { AccountsService, AuthModule, CreatedAccount } from '@app/auth';

@Module({})
class AccountCliModule {
  // Built on call, not at import, so importing this file never reads the environment.
  static register(): DynamicModule {
    return {
      module: AccountCliModule,
      imports: [ConfigModule.forShared(), PersistenceModule.forRoot(2), RedisModule, AuthModule],
    };
  }
}

export async function createAccount(email: string, plan: string): Promise<CreatedAccount> {
  const app = await NestFactory.createApplicationContext(AccountCliModule.register(), { logger: ['error'] });
  try {
    return await app.get(AccountsService).create(email, plan);
  } finally {
    await app.close();
  }
}

/** The keys are printed here once and never again; only their hashes are stored. */
export function describeCreated({ account, keys }: CreatedAccount): string {
  return [
    `Account ${account.id} <${account.email}> on plan "${account.plan}"`,
    ...keys.map((k) => `  ${k.environment.padEnd(10)} key: ${k.key}`),
    'Keep these keys secret: they are shown only now.',
  ].join('\n');
}

if (require.main === module) {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, plan: { type: 'string', default: 'free' } },
  });
  if (!values.email) {
    process.stderr.write(
      'usage: npm run account:create -- --email you@example.com [--plan free|starter|pro|enterprise]\n',
    );
    process.exit(2);
  }
  createAccount(values.email, values.plan)
    .then((created) => process.stdout.write(`${describeCreated(created)}\n`))
    .catch((err: unknown) => {
      const known = err instanceof ConfigError || err instanceof DomainError;
      process.stderr.write(`${known ? err.message : explainStartupFailure(err)}\n`);
      process.exit(1);
    });
}
