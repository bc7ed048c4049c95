import { SPEC_FILE, readRepoFile, repoFiles } from './repo-files';

/**
 * Tables with one owner: the job tables (jobs, job_pages, job_url_chunks) belong to libs/jobs and
 * the sessions table to libs/sessions, so every statement on them is one of the owner's named
 * operations, and a change to how a page is leased, stored or counted is made once. Anywhere else,
 * SQL naming them (in code or in a comment) fails here. Specs may set up and inspect rows
 * directly; migrations define the tables.
 */
const SCANNED = ['apps', 'libs', 'scripts', 'bench', 'test'];
const sqlOn = (tables: string[]) =>
  new RegExp(
    String.raw`\b(?:FROM|JOIN|UPDATE|INSERT\s+(?:IGNORE\s+)?INTO|DELETE\s+FROM)\s+` +
      '`?(?:' +
      tables.join('|') +
      String.raw`)\b`,
    'g',
  );
const OWNED = [
  { owner: 'libs/jobs/', sql: sqlOn(['jobs', 'job_pages', 'job_url_chunks']) },
  { owner: 'libs/sessions/', sql: sqlOn(['sessions']) },
];
const JOB_SQL = OWNED[0].sql;

function offenders(): string[] {
  return repoFiles(SCANNED)
    .filter((file) => file.endsWith('.ts') && !SPEC_FILE.test(file) && !file.includes('/migrations/'))
    .flatMap((file) => {
      const text = readRepoFile(file);
      return OWNED.filter(({ owner }) => !file.startsWith(owner)).flatMap(({ sql }) =>
        [...text.matchAll(sql)].map((m) => {
          const line = text.slice(0, m.index).split('\n').length;
          return `${file}:${line}: ${m[0].replace(/\s+/g, ' ')}`;
        }),
      );
    });
}

describe('SQL on tables with one owner', () => {
  it('appears only in the owner (specs and migrations aside)', () => {
    expect(offenders()).toEqual([]);
  });

  it('is recognised in the shapes it is written in', () => {
    const hits = (sql: string) => [...sql.matchAll(JOB_SQL)].length;
    expect(hits('SELECT id FROM jobs WHERE id = ?')).toBe(1);
    expect(hits('UPDATE job_pages p JOIN `jobs` j ON j.id = p.job_id')).toBe(2);
    expect(hits('INSERT IGNORE INTO job_pages (job_id) VALUES (?)')).toBe(1);
    expect(hits('DELETE FROM\n  job_url_chunks WHERE job_id = ?')).toBe(1);
    expect(hits('// counted FROM job_pages below')).toBe(1);
    expect(hits('SELECT 1 FROM jobs_archive; select * from jobs; FROM webhook_deliveries')).toBe(0);
    expect([...'DELETE FROM sessions WHERE 1'.matchAll(OWNED[1].sql)]).toHaveLength(1);
  });
});
