import { MigrationInterface, QueryRunner } from 'typeorm';

export class WebhookDeliveryPerJob1795335157078 implements MigrationInterface {
  name = 'WebhookDeliveryPerJob1795335157078';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_d129b321489e6c6bd4df228d20\` ON \`webhook_deliveries\``);
    await queryRunner.query(`ALTER TABLE \`webhook_deliveries\` ADD \`replays\` int NOT NULL DEFAULT '0'`);
    await queryRunner.query(
      `ALTER TABLE \`webhook_deliveries\` ADD \`round_start\` int NOT NULL DEFAULT '0'`,
    );
    await queryRunner.query(
      `ALTER TABLE \`webhook_deliveries\` ADD UNIQUE INDEX \`IDX_d129b321489e6c6bd4df228d20\` (\`job_id\`)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`webhook_deliveries\` DROP INDEX \`IDX_d129b321489e6c6bd4df228d20\``,
    );
    await queryRunner.query(`ALTER TABLE \`webhook_deliveries\` DROP COLUMN \`round_start\``);
    await queryRunner.query(`ALTER TABLE \`webhook_deliveries\` DROP COLUMN \`replays\``);
    await queryRunner.query(
      `CREATE INDEX \`IDX_d129b321489e6c6bd4df228d20\` ON \`webhook_deliveries\` (\`job_id\`)`,
    );
  }
}
