import { decideLevel, type AutoscaleBounds, type LoadSnapshot } from './decide';

const MiB = 2 ** 20;
/** A worker on 2 CPUs and 24 GiB, as concurrencyBounds sizes it. */
const bounds: AutoscaleBounds = { min: 1, max: 16, start: 8, pageBytes: 256 * MiB, reserveBytes: 2458 * MiB };
/** The same in a 2 GiB cgroup, as in the recording (its highest level was 6 then). */
const inCgroup: AutoscaleBounds = { min: 1, max: 6, start: 6, pageBytes: 256 * MiB, reserveBytes: 512 * MiB };

/**
 * Samples (250 ms each) recorded with LoadSampler beside a worker on this 2-CPU, 24 GiB machine
 * while other jobs ran on it: a burst of 40 client-rendered pages that wait on a late fetch
 * (`idleCpu`), 40 pages that spin the CPU for 1.5 s each (`saturated`), the first samples of a burst
 * while other processes held the machine (`othersBusy`), an idle worker (`idle`), and the worker in
 * a 2 GiB memory cgroup rendering pages that hold about 250 MiB each (`memoryShort`, `memoryFalling`). Free memory
 * is in MiB as recorded. Those recordings read demand, not use: the tree's use is taken as the
 * smaller of its demand and the machine's use (it is part of both).
 */
const snap = (
  cpu: number,
  machineCpu: number,
  eventLoopDelayMs: number,
  freeMiB: number,
  inFlight: number,
  waiting: number,
  cpuUsed = Math.min(cpu, machineCpu),
): LoadSnapshot => ({
  cpu,
  cpuUsed,
  machineCpu,
  eventLoopDelayMs,
  memoryFreeBytes: freeMiB * MiB,
  inFlight,
  waiting,
});
const idleCpu = [snap(0.54, 0.41, 11, 21779, 7, 30), snap(0.58, 0.42, 12, 21779, 7, 27)];
const saturated = [
  snap(4.06, 1, 16, 21471, 8, 32),
  snap(4.09, 1, 16, 21451, 8, 32),
  snap(4.29, 1, 14, 21443, 8, 32),
  snap(3.8, 1, 16, 21443, 8, 32),
];
const othersBusy = [snap(0.07, 0.62, 15, 21767, 8, 32), snap(0.21, 0.98, 17, 21779, 8, 32)];
const idle = [snap(0.05, 0.67, 11, 21624, 0, 0)];
/** Not seen in the recordings (the loop's 99th percentile stayed under 230 ms): the rule alone. */
const loopLate = [310, 420, 120, 380].map((ms) => snap(0.7, 0.7, ms, 21000, 10, 6));
const memoryShort = [snap(1.03, 1, 80, 278, 5, 30)];
const memoryFalling = [snap(1.76, 1, 548, 1111, 6, 34)];

/**
 * Use, demand and machine read together (the same /proc reading, at 2e7cbfe) while the machine also
 * ran other jobs: 16 client-rendered pages in flight (`manyPages`: the tree's processes wait for a
 * CPU about as long as they run), and the CPU-spinning burst at 8 (`spinning`).
 */
const manyPages = [
  [0.64, 2.08],
  [0.75, 2.03],
  [0.78, 2.29],
  [0.71, 2.15],
].map(([used, cpu]) => snap(cpu, 1, 40, 21000, 16, 120, used));
const spinning = [
  [0.74, 3.5],
  [0.73, 4.61],
  [0.69, 4.13],
  [0.71, 4.59],
].map(([used, cpu]) => snap(cpu, 1, 16, 21000, 8, 22, used));

describe('decideLevel', () => {
  it('raises fast while CPUs are idle and pages wait: a quarter at a step', () => {
    expect(decideLevel(8, idleCpu, bounds)).toBe(10);
    expect(decideLevel(12, idleCpu, bounds)).toBe(15);
  });

  it('raises no further than the pages waiting, nor than free memory holds', () => {
    expect(
      decideLevel(
        8,
        idleCpu.map((s) => ({ ...s, waiting: 1 })),
        bounds,
      ),
    ).toBe(9);
    const tight = idleCpu.map((s) => ({ ...s, memoryFreeBytes: bounds.reserveBytes + 300 * MiB }));
    expect(decideLevel(8, tight, bounds)).toBe(9);
    expect(
      decideLevel(
        8,
        tight.map((s) => ({ ...s, memoryFreeBytes: bounds.reserveBytes + 200 * MiB })),
        bounds,
      ),
    ).toBe(8);
  });

  it('holds when nothing waits, or when the window is too short to judge', () => {
    expect(
      decideLevel(
        8,
        idleCpu.map((s) => ({ ...s, waiting: 0 })),
        bounds,
      ),
    ).toBe(8);
    expect(decideLevel(8, idleCpu.slice(0, 1), bounds)).toBe(8);
    expect(decideLevel(8, [], bounds)).toBe(8);
  });

  it('lowers by a tenth (at least one) when most samples have the CPUs saturated', () => {
    expect(decideLevel(12, saturated, bounds)).toBe(11);
    expect(decideLevel(16, saturated, bounds)).toBe(15);
    expect(decideLevel(30, saturated, { ...bounds, max: 64 })).toBe(27);
  });

  it('holds at 16 pages that wait on the network, lowers on pages that only spin the CPU', () => {
    expect(decideLevel(16, manyPages, bounds)).toBe(16);
    expect(decideLevel(8, spinning, bounds)).toBe(7);
  });

  it('holds while the pages in flight are above the level: a lowered level is judged on its own load', () => {
    expect(decideLevel(7, saturated, bounds)).toBe(7);
  });

  it("does not raise past the start level for other tenants' load on the machine, nor stay below it", () => {
    expect(decideLevel(8, othersBusy, bounds)).toBe(8);
    expect(
      decideLevel(
        5,
        othersBusy.map((s) => ({ ...s, inFlight: 5 })),
        bounds,
      ),
    ).toBe(7);
    expect(
      decideLevel(
        7,
        othersBusy.map((s) => ({ ...s, inFlight: 7 })),
        bounds,
      ),
    ).toBe(8);
  });

  it('needs a second of samples to lower on CPU or the event loop', () => {
    expect(decideLevel(12, saturated.slice(0, 3), bounds)).toBe(12);
  });

  it('neither raises nor lowers when a minority of samples is overloaded', () => {
    const mixed = [...idleCpu, saturated[0]];
    expect(decideLevel(8, mixed, bounds)).toBe(8);
  });

  it('lowers when the event loop is late though the CPUs have room', () => {
    expect(decideLevel(10, loopLate, bounds)).toBe(9);
  });

  it('lowers at once from the pages in flight when memory is short, by the pages that free it', () => {
    // 234 MiB short of the 512 MiB reserve: one page of 256 MiB.
    expect(decideLevel(5, memoryShort, inCgroup)).toBe(4);
    expect(decideLevel(6, [snap(1, 1, 80, 10, 5, 30)], inCgroup)).toBe(3);
    expect(decideLevel(1, memoryShort, inCgroup)).toBe(1);
  });

  it('does not cut on one late or busy sample while memory still holds', () => {
    expect(decideLevel(6, memoryFalling, inCgroup)).toBe(6);
  });

  it('returns to the start level when idle, as far as memory allows', () => {
    expect(decideLevel(3, idle, bounds)).toBe(8);
    expect(decideLevel(14, idle, bounds)).toBe(8);
    expect(decideLevel(3, [{ ...idle[0], memoryFreeBytes: bounds.reserveBytes + 600 * MiB }], bounds)).toBe(
      5,
    );
  });

  it('keeps within MIN and MAX', () => {
    const narrow = { ...bounds, min: 4, max: 10 };
    expect(decideLevel(10, idleCpu, narrow)).toBe(10);
    expect(decideLevel(4, saturated, narrow)).toBe(4);
    expect(decideLevel(5, memoryShort, { ...inCgroup, min: 4 })).toBe(4);
    expect(decideLevel(40, idleCpu, narrow)).toBe(10);
  });
});
