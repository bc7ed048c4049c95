// The data source the TypeORM CLI generates migrations against (see docs/decisions.md on migrations):
// every table's entity, libs/persistence's and libs/jobs'.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadSharedEnv } from '@app/config';
import { JOB_ENTITIES } from '@app/jobs';
import { dataSourceOptions } from '@app/persistence';

export default new DataSource(dataSourceOptions(loadSharedEnv().DATABASE_URL, 2, JOB_ENTITIES));
