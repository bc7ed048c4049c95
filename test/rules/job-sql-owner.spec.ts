import { SPEC_FILE, readRepoFile, repoFiles } from './repo-files';

/**
 * The job tables (jobs, job_pages, job_url_chunks) have one owner, libs/jobs: every statement on
 * them is one of its named operations, so a change to how a page is leased, stored or counted is
 * made once. Anywhere else, SQL naming them (in code or in a comment) fails here. Specs may set up
 * and inspect rows directly; migrations define the tables.
 */
const SCANNED = ['apps', 'libs', 'scripts', 'bench', 'test'];
const JOB_SQL =
  /\b(?:FROM|JOIN|UPDATE|INSERT\s+(?:IGNORE\s+)?INTO|DELETE\s+FROM)\s+`?(?:jobs|job_pages|job_url_chunks)\b/g;

function offenders(): string[] {
  return repoFiles(SCANNED)
    .filter((file) => file.endsWith('.ts') && !file.startsWith('libs/jobs/'))
    .filter((file) => !SPEC_FILE.test(file) && !file.includes('/migrations/'))
    .flatMap((file) => {
      const text = readRepoFile(file);
      return [...text.matchAll(JOB_SQL)].map((m) => {
        const line = text.slice(0, m.index).split('\n').length;
        return `${file}:${line}: ${m[0].replace(/\s+/g, ' ')}`;
      });
    });
}

describe('SQL on the job tables', () => {
  it('appears only in libs/jobs (specs and migrations aside)', () => {
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
  });
});
