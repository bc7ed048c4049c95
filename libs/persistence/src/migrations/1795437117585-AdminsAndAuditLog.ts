import { MigrationInterface, QueryRunner } from 'typeorm';

export class AdminsAndAuditLog1795437117585 implements MigrationInterface {
  name = 'AdminsAndAuditLog1795437117585';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`admins\` (\`id\` varchar(32) NOT NULL, \`email\` varchar(254) NOT NULL, \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), UNIQUE INDEX \`IDX_051db7d37d478a69a7432df147\` (\`email\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`admin_keys\` (\`id\` varchar(32) NOT NULL, \`admin_id\` varchar(32) NOT NULL, \`key_hash\` char(64) NOT NULL, \`prefix\` varchar(16) NOT NULL, \`last4\` char(4) NOT NULL, \`name\` varchar(64) NULL, \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), \`revoked_at\` datetime(3) NULL, UNIQUE INDEX \`IDX_e83dae1cf12b63d26e58819fe6\` (\`key_hash\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`audit_log\` (\`id\` varchar(32) NOT NULL, \`admin_id\` varchar(32) NOT NULL, \`action\` varchar(64) NOT NULL, \`target\` varchar(64) NULL, \`details\` json NULL, \`request_id\` varchar(64) NULL, \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), INDEX \`IDX_06d28da92b6b7b0fbab1990c5c\` (\`target\`, \`id\`), INDEX \`IDX_cfcde3d585f4444f232850c94d\` (\`admin_id\`, \`id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `ALTER TABLE \`admin_keys\` ADD CONSTRAINT \`FK_662159f9078df3f2537aa383f78\` FOREIGN KEY (\`admin_id\`) REFERENCES \`admins\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`admin_keys\` DROP FOREIGN KEY \`FK_662159f9078df3f2537aa383f78\``);
    await queryRunner.query(`DROP INDEX \`IDX_cfcde3d585f4444f232850c94d\` ON \`audit_log\``);
    await queryRunner.query(`DROP INDEX \`IDX_06d28da92b6b7b0fbab1990c5c\` ON \`audit_log\``);
    await queryRunner.query(`DROP TABLE \`audit_log\``);
    await queryRunner.query(`DROP INDEX \`IDX_e83dae1cf12b63d26e58819fe6\` ON \`admin_keys\``);
    await queryRunner.query(`DROP TABLE \`admin_keys\``);
    await queryRunner.query(`DROP INDEX \`IDX_051db7d37d478a69a7432df147\` ON \`admins\``);
    await queryRunner.query(`DROP TABLE \`admins\``);
  }
}
