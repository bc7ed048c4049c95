import { MigrationInterface, QueryRunner } from 'typeorm';

/** Callers' sessions (libs/sessions): sealed cookies and storage per account, environment and id. */
export class Sessions1795900000000 implements MigrationInterface {
  name = 'Sessions1795900000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`sessions\` (\`account_id\` varchar(32) NOT NULL, \`environment\` enum ('production', 'sandbox') NOT NULL, \`session_id\` varchar(128) CHARACTER SET "ascii" COLLATE "ascii_bin" NOT NULL, \`state_enc\` mediumtext NULL, \`created_at\` datetime(3) NOT NULL, \`last_used_at\` datetime(3) NOT NULL, \`expires_at\` datetime(3) NOT NULL, INDEX \`IDX_9cfe37d28c3b229a350e086d94\` (\`expires_at\`), PRIMARY KEY (\`account_id\`, \`environment\`, \`session_id\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE \`sessions\``);
  }
}
