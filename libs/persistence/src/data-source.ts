// The data source the TypeORM CLI generates migrations against (see docs/decisions.md on migrations).
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { loadSharedEnv } from '@app/config';
import { dataSourceOptions } from './data-source-options';

export default new DataSource(dataSourceOptions(loadSharedEnv().DATABASE_URL, 2));
