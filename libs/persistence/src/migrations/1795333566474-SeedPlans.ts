import { MigrationInterface, QueryRunner } from 'typeorm';

// The plans (README, Limits): per-minute limit, monthly page quota, max concurrent pages per account.
const PLANS: [string, number, number, number][] = [
  ['free', 20, 1_000, 2],
  ['starter', 60, 50_000, 8],
  ['pro', 300, 500_000, 32],
  ['enterprise', 1_200, 5_000_000, 128],
];

export class SeedPlans1795333566474 implements MigrationInterface {
  name = 'SeedPlans1795333566474';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [name, perMinute, quota, concurrent] of PLANS) {
      await queryRunner.query(
        'INSERT INTO `plans` (`name`, `rate_per_minute`, `monthly_quota`, `max_concurrent_pages`) VALUES (?, ?, ?, ?)',
        [name, perMinute, quota, concurrent],
      );
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DELETE FROM `plans` WHERE `name` IN (?)', [PLANS.map(([name]) => name)]);
  }
}
