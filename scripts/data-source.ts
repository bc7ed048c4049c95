// The data source the TypeORM CLI generates migrations against (see docs/decisions.md on migrations):
// every table's entity, libs/persistence's, libs/jobs' and libs/sessions'.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadSharedEnv } from '@app/config';
import { JOB_ENTITIES } from '@app/jobs';
import { dataSourceOptions } from '@app/persistence';
import { Session } from '@app/sessions';

export default new DataSource(dataSourceOptions(loadSharedEnv().DATABASE_URL, 2, [...JOB_ENTITIES, Session]));
