// The pages bench:render renders, shared by the bench and its contender processes: the fixture
// site's client-rendered articles (/spa/article/<id>: the article fetched as JSON 150 ms after the
// script runs) and, every `lateEvery`-th id, its late-content ones (/late/article/<id>: fetched
// 300 ms after the load event and answered after 0 to 1000 ms), spread over several origins (one
// fixture site a port): the service caps pages in flight per host (HOST_CONCURRENCY, 8 by
// default), which a batch spanning sites does not meet and a single-host one does.

export interface PageSet {
  origins: string[];
  /** Every id divisible by this is a late-content page; 0: none. */
  lateEvery: number;
}

export const isLate = ({ lateEvery }: PageSet, id: number) => lateEvery > 0 && id % lateEvery === 0;

export const pageUrl = (set: PageSet, id: number) =>
  `${set.origins[id % set.origins.length]}/${isLate(set, id) ? 'late' : 'spa'}/article/${id}`;

/** The client-rendered article pages on one origin: /spa/article/<id>. */
export const spaUrl = (origin: string, id: number) => pageUrl({ origins: [origin], lateEvery: 0 }, id);

export const idOf = (url: string) => Number(url.split('/').pop());

/** Every contender warms up on pages from this id on (2K of them), none of them measured. */
export const WARM_UP_FIRST_ID = 9_000;

/** The markdown holds the article, not the empty shell: its title ends in "(No. <id>)". */
export function renderedArticle(markdown: string | undefined, id: number): boolean {
  return !!markdown?.includes(`(No. ${id})`);
}

/** What one contender did over the measured pages (the warm-up left out), as it timed itself. */
export interface RenderTiming {
  pages: number;
  failed: number;
  /** Late-content pages among the measured ones, and how many of them held their article. */
  late: number;
  lateHeld: number;
  seconds: number;
  latenciesMs: number[];
  /** When each page finished, in seconds from the start (the bare loop's; for bench:render-profile). */
  doneSeconds?: number[];
}

/** Counts pages as they end; `timing()` once the last has. */
export class PageTally {
  private readonly started = Date.now();
  private readonly latenciesMs: number[] = [];
  private readonly doneSeconds: number[] = [];
  private failed = 0;
  private late = 0;
  private lateHeld = 0;

  constructor(private readonly set: PageSet) {}

  /** A page whose content was (ok) or was not complete, `ms` after its start. */
  record(id: number, ms: number, ok: boolean): void {
    this.doneSeconds.push((Date.now() - this.started) / 1000);
    if (ok) this.latenciesMs.push(ms);
    else this.failed++;
    if (!isLate(this.set, id)) return;
    this.late++;
    if (ok) this.lateHeld++;
  }

  timing(): RenderTiming {
    const { failed, late, lateHeld, latenciesMs, doneSeconds } = this;
    const seconds = (Date.now() - this.started) / 1000;
    return { pages: latenciesMs.length + failed, failed, late, lateHeld, seconds, latenciesMs, doneSeconds };
  }
}
