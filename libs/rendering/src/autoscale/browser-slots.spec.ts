import { BrowserSlots } from './browser-slots';

/** A task that runs until its `finish` is called. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { task: () => done, finish };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('BrowserSlots', () => {
  it('lets `level` pages in at once; the rest wait in arrival order', async () => {
    const slots = new BrowserSlots(2);
    const tasks = [held(), held(), held()];
    const started: number[] = [];
    const runs = tasks.map((t, i) => slots.run(() => (started.push(i), t.task())));
    await turn();
    expect([slots.inFlight, slots.waiting, started]).toEqual([2, 1, [0, 1]]);
    tasks[1].finish();
    await turn();
    expect(started).toEqual([0, 1, 2]);
    tasks.forEach((t) => t.finish());
    await Promise.all(runs);
    expect([slots.inFlight, slots.waiting]).toEqual([0, 0]);
  });

  it('a raised level lets waiting pages in at once; a lowered one takes none away', async () => {
    const slots = new BrowserSlots(1);
    const tasks = [held(), held(), held(), held()];
    const runs = tasks.map((t) => slots.run(t.task));
    await turn();
    slots.setLevel(3);
    await turn();
    expect([slots.inFlight, slots.waiting]).toEqual([3, 1]);
    slots.setLevel(1);
    tasks[0].finish();
    tasks[1].finish();
    await turn();
    // Two ended, one still runs: at level 1 the waiting page still waits.
    expect([slots.inFlight, slots.waiting]).toEqual([1, 1]);
    tasks.forEach((t) => t.finish());
    await Promise.all(runs);
  });

  it('lets a `first` task in ahead of those already waiting', async () => {
    const slots = new BrowserSlots(1);
    const tasks = [held(), held(), held()];
    const started: number[] = [];
    const runs = [
      slots.run(() => (started.push(0), tasks[0].task())),
      slots.run(() => (started.push(1), tasks[1].task())),
      slots.run(() => (started.push(2), tasks[2].task()), true),
    ];
    await turn();
    tasks[0].finish();
    await turn();
    expect(started).toEqual([0, 2]);
    tasks.forEach((t) => t.finish());
    await Promise.all(runs);
    expect(started).toEqual([0, 2, 1]);
  });

  it('frees the slot of a task that throws', async () => {
    const slots = new BrowserSlots(1);
    await expect(slots.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(slots.inFlight).toBe(0);
  });
});
