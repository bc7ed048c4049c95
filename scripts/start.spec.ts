import { freePort, runCompiled } from '../test/support/processes';

/** `npm start` with nothing listening where its URLs point (npm test builds dist first). */
describe('npm start without its servers', () => {
  async function startWith(
    env: NodeJS.ProcessEnv,
  ): Promise<{ code: number | string | null; output: string }> {
    const proc = runCompiled('scripts/start.js', { ...process.env, ...env });
    const code = await proc.exited;
    return { code, output: proc.output() };
  }

  it('names each unreachable server on a line of its own, with where and how to start it, and no stack', async () => {
    const [redisPort, mysqlPort] = [await freePort(), await freePort()];
    const { code, output } = await startWith({
      REDIS_URL: `redis://:redis-secret@127.0.0.1:${redisPort}`,
      DATABASE_URL: `mysql://root:mysql-secret@127.0.0.1:${mysqlPort}/scraper`,
    });
    expect(code).toBe(1);
    const lines = output.trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Redis is not reachable at 127\\.0\\.0\\.1:${redisPort} \\(REDIS_URL\\): ECONNREFUSED\\. Start it, e\\.g\\.: redis-server `,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^MySQL/MariaDB is not reachable at 127\\.0\\.0\\.1:${mysqlPort} \\(DATABASE_URL\\): ECONNREFUSED\\. Start it`,
        ),
      ),
    ]);
    expect(output).not.toMatch(/secret/);
  });

  it('names only the one that is down', async () => {
    const { code, output } = await startWith({ REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    expect(code).toBe(1);
    expect(output.trim().split('\n')).toEqual([expect.stringMatching(/^Redis is not reachable at /)]);
  });
});
