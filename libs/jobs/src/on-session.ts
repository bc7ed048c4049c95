/**
 * SQL that is 1 when a job's options name a session (its pages then go one at a time), on the jobs
 * table or its alias `table`.
 */
export const onSessionSql = (table = 'jobs') => `(JSON_VALUE(${table}.options, '$.session_id') IS NOT NULL)`;
