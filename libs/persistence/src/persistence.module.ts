import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SharedEnv } from '@app/config';
import { dataSourceOptions } from './data-source-options';

/**
 * The connection only. Feature modules register the repositories they use with
 * TypeOrmModule.forFeature, so no module gets every repository.
 */
@Module({})
export class PersistenceModule {
  static forRoot(poolSize = 10): DynamicModule {
    return {
      module: PersistenceModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [SharedEnv],
          useFactory: (env: SharedEnv) => ({
            ...dataSourceOptions(env.DATABASE_URL, poolSize),
            retryAttempts: 0,
            // The job tables' entities come from libs/jobs' module (TypeOrmModule.forFeature).
            autoLoadEntities: true,
          }),
        }),
      ],
    };
  }
}
