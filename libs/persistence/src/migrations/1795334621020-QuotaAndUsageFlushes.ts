import { MigrationInterface, QueryRunner } from 'typeorm';

export class QuotaAndUsageFlushes1795334621020 implements MigrationInterface {
  name = 'QuotaAndUsageFlushes1795334621020';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`quota_monthly\` (\`account_id\` varchar(32) NOT NULL, \`environment\` enum ('production', 'sandbox') NOT NULL, \`month\` date NOT NULL, \`reserved\` int NOT NULL DEFAULT '0', PRIMARY KEY (\`account_id\`, \`environment\`, \`month\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`usage_flushes\` (\`id\` varchar(40) NOT NULL, \`flushed_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), INDEX \`IDX_0ac19b0e237329495913633a41\` (\`flushed_at\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_0ac19b0e237329495913633a41\` ON \`usage_flushes\``);
    await queryRunner.query(`DROP TABLE \`usage_flushes\``);
    await queryRunner.query(`DROP TABLE \`quota_monthly\``);
  }
}
