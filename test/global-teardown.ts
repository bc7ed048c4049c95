import 'tsconfig-paths/register';
import { dropStores } from './support/stores';

export default async function globalTeardown(): Promise<void> {
  await dropStores(process.env.DATABASE_URL!, process.env.REDIS_URL!, process.env.REDIS_PREFIX!);
}
