import { MigrationInterface, QueryRunner } from 'typeorm';

export class DeliveryRetentionIndex1795447126089 implements MigrationInterface {
  name = 'DeliveryRetentionIndex1795447126089';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX \`IDX_d043463250b9ae3eab15128660\` ON \`webhook_deliveries\` (\`status\`, \`updated_at\`)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`IDX_d043463250b9ae3eab15128660\` ON \`webhook_deliveries\``);
  }
}
