import { type HandOutState, handOut, nextChunkStart, shares, windowFor } from './page-window';

describe('windowFor and nextChunkStart', () => {
  it("keeps a chunk a slot of the plan's in-flight pages, at least one, and one for a session's pages", () => {
    expect(windowFor(128, false)).toBe(25);
    expect(windowFor(3, false)).toBe(1);
    expect(windowFor(128, true)).toBe(1);
  });

  it('queues the chunk a window ahead of the one holding the index', () => {
    expect(nextChunkStart(0, 25)).toBe(125);
    expect(nextChunkStart(7, 25)).toBe(130);
    expect(nextChunkStart(7, 1)).toBe(10);
  });
});

describe('shares', () => {
  it('cuts a range into consecutive, even pieces that cover it', () => {
    expect(shares(2, 10, 3)).toEqual([
      [2, 4],
      [4, 7],
      [7, 10],
    ]);
    expect(shares(0, 8, 4)).toEqual([
      [0, 2],
      [2, 4],
      [4, 6],
      [6, 8],
    ]);
  });

  it('makes no empty piece when asked for more pieces than items', () => {
    expect(shares(5, 7, 4)).toEqual([
      [5, 6],
      [6, 7],
    ]);
    expect(shares(3, 3, 2)).toEqual([]);
  });
});

describe('handOut', () => {
  // A run about to render page 2 of [0, 10): pages 3..9 are its to share.
  const state = (over: Partial<HandOutState>): HandOutState => ({
    head: undefined,
    n: 2,
    end: 10,
    idle: 0,
    spare: 100,
    lastWindow: false,
    quick: false,
    ...over,
  });

  it('shares evenly with idle slots when nothing waits', () => {
    // 8 pages [2, 10) among this run and 3 idle slots: it keeps [2, 4).
    expect(handOut(state({ idle: 3 }))).toEqual([4, 3]);
    expect(handOut(state({ idle: 3, lastWindow: true }))).toEqual([4, 3]);
  });

  it('hands out no more pieces than the limits have room for, nor than pages after n', () => {
    expect(handOut(state({ idle: 3, spare: 1 }))).toEqual([6, 1]);
    expect(handOut(state({ idle: 3, spare: 0 }))[1]).toBe(0);
    expect(handOut(state({ idle: 5, n: 9 }))[1]).toBe(0);
    expect(handOut(state({ lastWindow: true, spare: 2 }))).toEqual([8, 2]);
  });

  it('in the last window, gives away every page after n once only pieces wait', () => {
    expect(handOut(state({ lastWindow: true }))).toEqual([3, 7]);
    expect(handOut(state({ lastWindow: true, head: 'piece' }))).toEqual([3, 7]);
  });

  it('shares quick pages with idle slots, but keeps them at the end of the job', () => {
    expect(handOut(state({ idle: 3, quick: true }))).toEqual([4, 3]);
    expect(handOut(state({ lastWindow: true, quick: true }))).toEqual([10, 0]);
    expect(handOut(state({ lastWindow: true, head: 'piece', quick: true }))).toEqual([10, 0]);
  });

  it('keeps its pages while chunks or a sync scrape wait, or while chunks are yet to come', () => {
    expect(handOut(state({ lastWindow: true, head: 'other' }))).toEqual([10, 0]);
    expect(handOut(state({ lastWindow: true, head: 'sync' }))).toEqual([10, 0]);
    expect(handOut(state({ head: 'piece' }))).toEqual([10, 0]);
    expect(handOut(state({}))).toEqual([10, 0]);
    expect(handOut(state({ idle: 3, head: 'other' }))).toEqual([10, 0]);
  });
});
