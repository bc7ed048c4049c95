import { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1795333566473 implements MigrationInterface {
  name = 'InitialSchema1795333566473';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`plans\` (\`id\` int NOT NULL AUTO_INCREMENT, \`name\` varchar(32) NOT NULL, \`rate_per_minute\` int NOT NULL, \`monthly_quota\` int NOT NULL, \`max_concurrent_pages\` int NOT NULL, \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3), UNIQUE INDEX \`IDX_253d25dae4c94ee913bc5ec485\` (\`name\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`accounts\` (\`id\` varchar(32) NOT NULL, \`email\` varchar(254) NOT NULL, \`plan_id\` int NOT NULL, \`status\` enum ('active', 'suspended') NOT NULL DEFAULT 'active', \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), \`updated_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3) ON UPDATE CURRENT_TIMESTAMP(3), UNIQUE INDEX \`IDX_ee66de6cdc53993296d1ceb8aa\` (\`email\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`api_keys\` (\`id\` varchar(32) NOT NULL, \`account_id\` varchar(32) NOT NULL, \`environment\` enum ('production', 'sandbox') NOT NULL, \`key_hash\` char(64) NOT NULL, \`prefix\` varchar(16) NOT NULL, \`last4\` char(4) NOT NULL, \`name\` varchar(64) NULL, \`created_at\` datetime(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3), \`last_used_at\` datetime(3) NULL, \`revoked_at\` datetime(3) NULL, INDEX \`IDX_a0babe2e47f50841e58c50a2d2\` (\`account_id\`, \`environment\`), UNIQUE INDEX \`IDX_57384430aa1959f4578046c9b8\` (\`key_hash\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`jobs\` (\`id\` varchar(32) NOT NULL, \`account_id\` varchar(32) NOT NULL, \`environment\` enum ('production', 'sandbox') NOT NULL, \`type\` enum ('scrape', 'batch', 'crawl') NOT NULL, \`status\` enum ('queued', 'running', 'completed', 'failed', 'cancelled') NOT NULL DEFAULT 'queued', \`url\` text NULL, \`options\` json NOT NULL, \`webhook_url\` varchar(2048) NULL, \`idempotency_key\` varchar(255) NULL, \`request_hash\` char(64) NULL, \`total\` int NOT NULL DEFAULT '0', \`completed\` int NOT NULL DEFAULT '0', \`failed\` int NOT NULL DEFAULT '0', \`quota_reserved\` int NOT NULL DEFAULT '0', \`error_code\` varchar(64) NULL, \`error_message\` varchar(1024) NULL, \`created_at\` datetime(3) NOT NULL, \`started_at\` datetime(3) NULL, \`finished_at\` datetime(3) NULL, \`expires_at\` datetime(3) NOT NULL, INDEX \`IDX_cf522e8361918c5ea28cfc3917\` (\`expires_at\`), INDEX \`IDX_f5451bb6624eba871696e382df\` (\`status\`, \`id\`), UNIQUE INDEX \`IDX_30e17893707f4b48a20c4bca70\` (\`account_id\`, \`environment\`, \`idempotency_key\`), INDEX \`IDX_24d9b711829b6b551c72c47dd5\` (\`account_id\`, \`environment\`, \`id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`job_url_chunks\` (\`job_id\` varchar(32) NOT NULL, \`chunk_no\` int NOT NULL, \`first_index\` int NOT NULL, \`url_count\` int NOT NULL, \`data\` longblob NOT NULL, PRIMARY KEY (\`job_id\`, \`chunk_no\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`job_pages\` (\`job_id\` varchar(32) NOT NULL, \`idx\` int NOT NULL, \`url\` text NOT NULL, \`status\` enum ('pending', 'running', 'succeeded', 'failed') NOT NULL DEFAULT 'pending', \`depth\` smallint NOT NULL DEFAULT '0', \`attempts\` tinyint NOT NULL DEFAULT '0', \`status_code\` smallint NULL, \`error_code\` varchar(32) NULL, \`render_ms\` int NULL, \`result\` longtext NULL, \`finished_at\` datetime(3) NULL, INDEX \`IDX_f9e71eb1366acffa3d049b2e7f\` (\`job_id\`, \`status\`), PRIMARY KEY (\`job_id\`, \`idx\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`webhook_secrets\` (\`id\` int NOT NULL AUTO_INCREMENT, \`account_id\` varchar(32) NOT NULL, \`environment\` enum ('production', 'sandbox') NOT NULL, \`secret_enc\` varchar(512) NOT NULL, \`previous_secret_enc\` varchar(512) NULL, \`previous_expires_at\` datetime(3) NULL, \`created_at\` datetime(3) NOT NULL, \`rotated_at\` datetime(3) NULL, UNIQUE INDEX \`IDX_6f9cdaeb3fc13d43bf1b7dfd43\` (\`account_id\`, \`environment\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`webhook_deliveries\` (\`id\` varchar(32) NOT NULL, \`account_id\` varchar(32) NOT NULL, \`environment\` enum ('production', 'sandbox') NOT NULL, \`job_id\` varchar(32) NOT NULL, \`url\` varchar(2048) NOT NULL, \`payload\` longtext NOT NULL, \`status\` enum ('pending', 'succeeded', 'failed') NOT NULL DEFAULT 'pending', \`attempt_count\` int NOT NULL DEFAULT '0', \`next_attempt_at\` datetime(3) NULL, \`last_status_code\` smallint NULL, \`last_error\` varchar(1024) NULL, \`created_at\` datetime(3) NOT NULL, \`updated_at\` datetime(3) NOT NULL, \`delivered_at\` datetime(3) NULL, INDEX \`IDX_284017efc3cbfe592288749a9c\` (\`status\`, \`next_attempt_at\`), INDEX \`IDX_d129b321489e6c6bd4df228d20\` (\`job_id\`), INDEX \`IDX_22fd3452423dc77127143849c2\` (\`account_id\`, \`environment\`, \`id\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`webhook_attempts\` (\`id\` bigint NOT NULL AUTO_INCREMENT, \`delivery_id\` varchar(32) NOT NULL, \`attempt_no\` int NOT NULL, \`replay\` tinyint NOT NULL DEFAULT 0, \`started_at\` datetime(3) NOT NULL, \`request_headers\` json NOT NULL, \`status_code\` smallint NULL, \`latency_ms\` int NOT NULL, \`error\` varchar(1024) NULL, \`response_excerpt\` varchar(1024) NULL, INDEX \`IDX_eb6bafa94e6382502960b75e69\` (\`delivery_id\`, \`attempt_no\`), PRIMARY KEY (\`id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `CREATE TABLE \`usage_daily\` (\`account_id\` varchar(32) NOT NULL, \`environment\` enum ('production', 'sandbox') NOT NULL, \`day\` date NOT NULL, \`pages\` int NOT NULL DEFAULT '0', \`succeeded\` int NOT NULL DEFAULT '0', \`failed\` int NOT NULL DEFAULT '0', \`render_ms_total\` bigint NOT NULL DEFAULT '0', PRIMARY KEY (\`account_id\`, \`environment\`, \`day\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `ALTER TABLE \`accounts\` ADD CONSTRAINT \`FK_ec3913403cfe3d432d10a6b86fb\` FOREIGN KEY (\`plan_id\`) REFERENCES \`plans\`(\`id\`) ON DELETE RESTRICT ON UPDATE NO ACTION`,
    );
    await queryRunner.query(
      `ALTER TABLE \`api_keys\` ADD CONSTRAINT \`FK_decaf331589778e33441b2a8d9e\` FOREIGN KEY (\`account_id\`) REFERENCES \`accounts\`(\`id\`) ON DELETE CASCADE ON UPDATE NO ACTION`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`api_keys\` DROP FOREIGN KEY \`FK_decaf331589778e33441b2a8d9e\``);
    await queryRunner.query(`ALTER TABLE \`accounts\` DROP FOREIGN KEY \`FK_ec3913403cfe3d432d10a6b86fb\``);
    await queryRunner.query(`DROP TABLE \`usage_daily\``);
    await queryRunner.query(`DROP INDEX \`IDX_eb6bafa94e6382502960b75e69\` ON \`webhook_attempts\``);
    await queryRunner.query(`DROP TABLE \`webhook_attempts\``);
    await queryRunner.query(`DROP INDEX \`IDX_22fd3452423dc77127143849c2\` ON \`webhook_deliveries\``);
    await queryRunner.query(`DROP INDEX \`IDX_d129b321489e6c6bd4df228d20\` ON \`webhook_deliveries\``);
    await queryRunner.query(`DROP INDEX \`IDX_284017efc3cbfe592288749a9c\` ON \`webhook_deliveries\``);
    await queryRunner.query(`DROP TABLE \`webhook_deliveries\``);
    await queryRunner.query(`DROP INDEX \`IDX_6f9cdaeb3fc13d43bf1b7dfd43\` ON \`webhook_secrets\``);
    await queryRunner.query(`DROP TABLE \`webhook_secrets\``);
    await queryRunner.query(`DROP INDEX \`IDX_f9e71eb1366acffa3d049b2e7f\` ON \`job_pages\``);
    await queryRunner.query(`DROP TABLE \`job_pages\``);
    await queryRunner.query(`DROP TABLE \`job_url_chunks\``);
    await queryRunner.query(`DROP INDEX \`IDX_24d9b711829b6b551c72c47dd5\` ON \`jobs\``);
    await queryRunner.query(`DROP INDEX \`IDX_30e17893707f4b48a20c4bca70\` ON \`jobs\``);
    await queryRunner.query(`DROP INDEX \`IDX_f5451bb6624eba871696e382df\` ON \`jobs\``);
    await queryRunner.query(`DROP INDEX \`IDX_cf522e8361918c5ea28cfc3917\` ON \`jobs\``);
    await queryRunner.query(`DROP TABLE \`jobs\``);
    await queryRunner.query(`DROP INDEX \`IDX_57384430aa1959f4578046c9b8\` ON \`api_keys\``);
    await queryRunner.query(`DROP INDEX \`IDX_a0babe2e47f50841e58c50a2d2\` ON \`api_keys\``);
    await queryRunner.query(`DROP TABLE \`api_keys\``);
    await queryRunner.query(`DROP INDEX \`IDX_ee66de6cdc53993296d1ceb8aa\` ON \`accounts\``);
    await queryRunner.query(`DROP TABLE \`accounts\``);
    await queryRunner.query(`DROP INDEX \`IDX_253d25dae4c94ee913bc5ec485\` ON \`plans\``);
    await queryRunner.query(`DROP TABLE \`plans\``);
  }
}
