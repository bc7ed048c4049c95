import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Jobs accepted before the caller's headers were sealed keep them in clear in `options.headers`.
 * An ended job needs them no more: removed. An open job keeps them until it ends (the worker still
 * renders with them) and retention deletes its row; a migration has no key to seal them with.
 */
export class EndedJobsDropClearHeaders1795667441303 implements MigrationInterface {
  name = 'EndedJobsDropClearHeaders1795667441303';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `UPDATE \`jobs\` SET \`options\` = JSON_REMOVE(\`options\`, '$.headers')
       WHERE \`status\` IN ('completed', 'failed', 'cancelled') AND JSON_CONTAINS_PATH(\`options\`, 'one', '$.headers')`,
    );
  }

  public async down(): Promise<void> {
    // Nothing to put back.
  }
}
