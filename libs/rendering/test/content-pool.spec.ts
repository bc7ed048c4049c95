import { join } from 'node:path';
import { NO_METADATA } from '@app/queue-contracts';
import { PageFailure } from '../src/page-errors';
import { ContentPool } from '../src/content-pool/content-pool';
import { ThreadPool } from '../src/content-pool/thread-pool';
import type { HostileTask } from './hostile-task';

const TIMEOUT_MS = 1000;
const HEAP_MB = 64;
/** Filling a heap runs slower as it nears its cap: this pool's deadline leaves it time to. */
const SLOW_TIMEOUT_MS = 60_000;

/** Rejects with the failure `run` ended in, or fails the test if it resolved. */
async function failureOf(run: Promise<unknown>): Promise<PageFailure> {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PageFailure);
  return err as PageFailure;
}

/** Ticks of a 20 ms interval on this thread while `work` runs: the event loop stays free. */
async function ticksDuring<T>(work: Promise<T>): Promise<number> {
  let ticks = 0;
  const interval = setInterval(() => ticks++, 20);
  await work.catch(() => undefined);
  clearInterval(interval);
  return ticks;
}

describe('ThreadPool (a task module of hostile work)', () => {
  let pool: ThreadPool<HostileTask, number>;

  const hostilePool = (timeoutMs: number) =>
    new ThreadPool<HostileTask, number>({
      filename: join(__dirname, 'hostile-task.ts'),
      threads: 1,
      heapMb: HEAP_MB,
      timeoutMs,
    });

  beforeEach(() => {
    pool = hostilePool(TIMEOUT_MS);
  });
  afterEach(() => pool.close());

  it('ends a task past its deadline with TOO_COMPLEX, replaces the thread, serves the next task', async () => {
    const before = await pool.run('echo');
    const started = Date.now();
    const looping = pool.run('loop');
    const ticks = await ticksDuring(looping);
    const failure = await failureOf(looping);
    expect(failure.toError()).toEqual({
      code: 'TOO_COMPLEX',
      message: `the page's content took longer than CONTENT_TIMEOUT_MS=${TIMEOUT_MS} ms to process`,
    });
    // Generous: the deadline plus a thread's start on a busy machine.
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 10_000);
    // The loop ran on its thread, not this one: the interval kept ticking through the deadline.
    expect(ticks).toBeGreaterThanOrEqual(10);
    const after = await pool.run('echo');
    expect(after).not.toBe(before);
    expect(pool.stats()).toMatchObject({
      threads: 1,
      busy: 0,
      tasks: { success: 2, too_complex: 1, error: 0 },
      replaced: { deadline: 1, heap: 0 },
    });
  });

  it('ends a task past its heap cap with TOO_COMPLEX, and only its thread', async () => {
    await pool.close();
    pool = hostilePool(SLOW_TIMEOUT_MS);
    const before = await pool.run('echo');
    const allocating = pool.run('allocate');
    const ticks = await ticksDuring(allocating);
    const failure = await failureOf(allocating);
    expect(failure.toError()).toEqual({
      code: 'TOO_COMPLEX',
      message: `the page's content needed more than CONTENT_HEAP_MB=${HEAP_MB} MiB of memory to process`,
    });
    expect(ticks).toBeGreaterThan(0);
    expect(await pool.run('echo')).not.toBe(before);
    expect(pool.stats()).toMatchObject({ tasks: { too_complex: 1 }, replaced: { deadline: 0, heap: 1 } });
  });

  it('counts tasks waiting for a thread and tasks a thread is on', async () => {
    const looping = pool.run('loop');
    const queued = pool.run('echo');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pool.stats()).toMatchObject({ threads: 1, queued: 1 });
    await expect(looping).rejects.toBeInstanceOf(PageFailure);
    // The queued task waited out the loop's deadline without its own running.
    await expect(queued).resolves.toEqual(expect.any(Number));
    expect(pool.stats()).toMatchObject({ queued: 0, busy: 0, tasks: { success: 1, too_complex: 1 } });
  });
});

describe('ThreadPool (a task module that cannot load)', () => {
  it('fails tasks instead of queueing them for threads that never start', async () => {
    const pool = new ThreadPool<string, string>({
      filename: join(__dirname, 'broken-task.ts'),
      threads: 1,
      heapMb: HEAP_MB,
      timeoutMs: TIMEOUT_MS,
    });
    try {
      await expect(pool.run('first')).rejects.toThrow('this task module cannot load');
      // Piscina starts one more thread, which fails too, and then no more.
      await expect(pool.run('second')).rejects.toThrow(/cannot load|no content thread is running/);
      await expect(pool.run('third')).rejects.toThrow(/cannot load|no content thread is running/);
      expect(pool.stats()).toMatchObject({ queued: 0, tasks: { success: 0, too_complex: 0, error: 3 } });
    } finally {
      await pool.close();
    }
  });
});

describe('ContentPool', () => {
  const pool = new ContentPool({ CONTENT_THREADS: 1, CONTENT_HEAP_MB: 128, CONTENT_TIMEOUT_MS: 10_000 });
  afterAll(() => pool.close());

  const options = { formats: ['markdown', 'links', 'raw_html'] as const, only_main_content: false };
  const input = (body: string) => ({
    body: `<!doctype html><html><head><title>T</title></head><body>${body}</body></html>`,
    kind: 'html' as const,
    url: 'http://127.0.0.1/page',
    options: { ...options, formats: [...options.formats] },
  });

  it("converts a page in its thread, leaving out raw_html (the caller's own body)", async () => {
    const answer = await pool.run({
      input: input('<p>Hello <a href="/next">next</a></p>'),
      decide: false,
    });
    expect(answer).toEqual({
      content: {
        markdown: '# T\n\nHello [next](http://127.0.0.1/next)',
        links: ['http://127.0.0.1/next'],
        metadata: { ...NO_METADATA, title: 'T' },
      },
    });
  });

  it("decides render: auto's question in the thread: a page that needs JavaScript is not converted", async () => {
    const app = '<div id="root"></div><script src="/app.js"></script>';
    expect(await pool.run({ input: input(app), decide: true })).toEqual({
      javascript: 'empty app root #root',
    });
    const text = `<p>${'Server-rendered words. '.repeat(20)}</p><script src="/app.js"></script>`;
    expect(await pool.run({ input: input(text), decide: true })).toHaveProperty('content.markdown');
  });
});
