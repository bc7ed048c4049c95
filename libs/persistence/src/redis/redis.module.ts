import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  OnApplicationShutdown,
  OnModuleInit,
} from '@nestjs/common';
import Redis from 'ioredis';
import { SharedEnv } from '@app/config';

/** The app's one general-purpose Redis connection (Bull opens its own). */
export const REDIS = Symbol('REDIS');

/** Prefixes every key we own with REDIS_PREFIX, so deployments and test runs can share a Redis. */
@Injectable()
export class RedisKeys {
  constructor(private readonly env: SharedEnv) {}

  key(...parts: (string | number)[]): string {
    return [this.env.REDIS_PREFIX, ...parts].join(':');
  }
}

@Injectable()
class RedisLifecycle implements OnModuleInit, OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  /** Start-up fails fast when Redis is down, instead of serving requests that will all fail. */
  async onModuleInit(): Promise<void> {
    const timeout = new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`Redis did not answer PING within 3 s`)), 3000).unref(),
    );
    try {
      await Promise.race([this.redis.ping(), timeout]);
    } catch (err) {
      throw new Error(`Redis is not reachable: ${(err as Error).message}`);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [SharedEnv],
      // Fail fast on start-up instead of queueing commands forever against a Redis that is down.
      useFactory: (env: SharedEnv) => {
        const redis = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 2 });
        // ioredis reconnects by itself; report each distinct failure once instead of on every retry.
        const logger = new Logger('Redis');
        let last = '';
        redis.on('error', (err: Error) => {
          if (err.message !== last) logger.warn(`connection error: ${(last = err.message)}`);
        });
        redis.on('ready', () => (last = ''));
        return redis;
      },
    },
    RedisKeys,
    RedisLifecycle,
  ],
  exports: [REDIS, RedisKeys],
})
export class RedisModule {}
