import type { PageResult, ScrapeOptions } from '@app/queue-contracts';
import { SCRAPE_DEFAULTS, errorResult } from '@app/queue-contracts';
import type { RenderService } from '@app/rendering';
import { type TryCount, renderCounted, withShape } from './render-attempts';

const options: ScrapeOptions = { ...SCRAPE_DEFAULTS, formats: ['markdown', 'links'] };
const request = { url: 'http://site.test/', index: 3, options, isolationKey: 'acc' };
const good: PageResult = {
  ...errorResult(request.url, 3, options, { code: 'TIMEOUT', message: 'x' }),
  error: undefined,
  status_code: 200,
  markdown: '# Page',
  links: [],
};

/** A renderer whose renders follow `outcomes` in turn: a result, or an error thrown. */
function renderer(outcomes: (PageResult | Error)[]): RenderService & { renders: number } {
  const fake = {
    renders: 0,
    render: () => {
      const next = outcomes[fake.renders++];
      return next instanceof Error ? Promise.reject(next) : Promise.resolve(next);
    },
  };
  return fake as unknown as RenderService & { renders: number };
}

/** Counted as job_pages would: `before` tries already made elsewhere. */
function count(before: number, max = 2): TryCount & { crashes: number[] } {
  let n = before;
  const tries = {
    max,
    crashes: [] as number[],
    next: async () => ++n,
    onCrash: (a: number) => tries.crashes.push(a),
  };
  return tries;
}

describe('renderCounted', () => {
  it('renders a page with tries left and returns its result', async () => {
    const r = renderer([good]);
    expect(await renderCounted(r, request, count(0))).toBe(good);
    expect(r.renders).toBe(1);
  });

  it('retries a crashed browser while tries are left, counting each try with the others', async () => {
    const r = renderer([new Error('browser gone'), good]);
    const tries = count(0);
    expect(await renderCounted(r, request, tries)).toBe(good);
    expect(tries.crashes).toEqual([1]);
  });

  it('fails as RENDER_CRASH when the last try crashes', async () => {
    const r = renderer([new Error('browser gone')]);
    // One try was lost with a worker before: this worker has one left.
    const result = await renderCounted(r, request, count(1));
    expect(r.renders).toBe(1);
    expect(result?.error).toEqual({
      code: 'RENDER_CRASH',
      message: 'the browser crashed on try 2 of 2: browser gone',
    });
  });

  it('does not render a page whose tries were all lost with their workers', async () => {
    const r = renderer([good]);
    const result = await renderCounted(r, request, count(2));
    expect(r.renders).toBe(0);
    expect(result).toMatchObject({ index: 3, url: request.url, error: { code: 'RENDER_CRASH' } });
    expect(Object.keys(result!.error!)).toEqual(['code', 'message']);
    expect(result!.error!.message).toMatch(/tried 2 times/);
  });

  it('renders nothing when the try is refused (job cancelled, page finished elsewhere)', async () => {
    const r = renderer([good]);
    expect(await renderCounted(r, request, { ...count(0), next: async () => null })).toBeNull();
    expect(r.renders).toBe(0);
  });
});

describe('withShape', () => {
  it('keeps a page with every format asked for, and a failed page as it is', () => {
    expect(withShape(good, options)).toBe(good);
    const failed = { ...good, markdown: undefined, error: { code: 'TOO_LARGE' as const, message: 'big' } };
    expect(withShape(failed, options)).toBe(failed);
  });

  it('keeps a text document without html, which it never has', () => {
    const text = { ...good, html: undefined };
    expect(withShape(text, { ...options, formats: ['markdown', 'html'] })).toBe(text);
  });

  it('fails a success that lacks a format asked for, never an empty 200', () => {
    const empty = { ...good, markdown: undefined };
    expect(withShape(empty, options).error).toEqual({
      code: 'RENDER_CRASH',
      message: "the page's markdown could not be produced",
    });
  });
});
