import { spawn, type ChildProcess } from 'node:child_process';
import { processTable, processTree, treeMemory } from './browser-process';

describe('the process table from /proc', () => {
  let child: ChildProcess;

  beforeEach(async () => {
    child = spawn('sleep', ['30']);
    await new Promise((resolve) => child.once('spawn', resolve));
  });

  afterEach(() => child.kill('SIGKILL'));

  it('finds a process started since the last read, unless a shared read is fresh enough', () => {
    const before = processTable();
    const late = spawn('sleep', ['30']);
    try {
      expect(processTable(60_000)).toBe(before);
      expect(processTree(process.pid, before)).not.toContain(late.pid);
      const fresh = processTable();
      expect(fresh).not.toBe(before);
      expect(processTree(process.pid, fresh)).toEqual(
        expect.arrayContaining([process.pid, child.pid, late.pid]),
      );
    } finally {
      late.kill('SIGKILL');
    }
  });

  it('reads each process parent and the CPU it used', () => {
    const table = processTable();
    expect(table.get(child.pid!)?.parent).toBe(process.pid);
    const burnUntil = Date.now() + 300;
    while (Date.now() < burnUntil);
    // 300 ms of CPU are 30 ticks of 10 ms; a busy machine may give this process fewer of them.
    expect(processTable().get(process.pid)!.cpuTicks - table.get(process.pid)!.cpuTicks).toBeGreaterThan(5);
  });

  it('sums a tree memory and leaves other processes out', () => {
    const table = processTable();
    expect(processTree(child.pid!, table)).toEqual([child.pid]);
    const [[, ours], [, childs]] = treeMemory([process.pid, child.pid!], 'rss', table);
    expect(childs).toBeGreaterThan(0);
    expect(ours).toBeGreaterThan(childs);
    expect(processTree(-1, table)).toEqual([]);
  });
});
