// Memory and CPU of a process and its descendants from /proc, shared by the benchmarks.
import { fork } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';

export interface Sample {
  rssMiB: number;
  /** 0 in a sample taken without PSS (startSampling reads it on every tenth sample). */
  pssMiB: number;
  /** User + system CPU seconds of the processes alive at the sample (their reaped children's included). */
  cpuSeconds: number;
  /** Each process's own user + system CPU, in ticks (summarize). */
  ticksByPid: Map<number, number>;
  processes: number;
}

/** The pid and its descendants, from the parent pid field of every /proc/<pid>/stat. */
export function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const ppid = Number(statFields(name)[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]) ?? []));
  return tree;
}

/** The pid's child processes whose command line matches `command`. */
export function childProcesses(parent: number, command: RegExp): number[] {
  return processTree(parent).filter((pid) => {
    try {
      return (
        Number(statFields(pid)[1]) === parent && command.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))
      );
    } catch {
      return false;
    }
  });
}

/** The fields of a /proc stat file after the command name: field n of stat(5) is at n - 3. */
const fieldsAt = (path: string): string[] => readFileSync(path, 'utf8').split(') ')[1].split(' ');

const statFields = (pid: number | string): string[] => fieldsAt(`/proc/${pid}/stat`);

/** A process's own user + system CPU (utime and stime), in 10 ms ticks. */
const ownTicksOf = (stat: string[]) => Number(stat[11]) + Number(stat[12]);

export const ownTicks = (pid: number): number => ownTicksOf(statFields(pid));

/**
 * A process's CPU in ticks by thread name (Node's MainThread, its WorkerThreads, V8's V8Worker
 * helpers, libuv's threads); a thread that has ended is no longer counted.
 */
export function threadTicks(pid: number): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      byName.set(name, (byName.get(name) ?? 0) + ownTicksOf(fieldsAt(`/proc/${pid}/task/${tid}/stat`)));
    } catch {
      // The thread ended while we looked.
    }
  }
  return byName;
}

function kib(file: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(file, 'utf8'));
  return match ? Number(match[1]) : 0;
}

/** Resident set size of one process. */
export function processRssMiB(pid: number): number {
  return kib(`/proc/${pid}/status`, 'VmRSS') / 1024;
}

/**
 * RSS counts a shared page in every process that maps it, so its sum over Chromium's processes
 * overstates the footprint; PSS divides shared pages among their users, closer to what the pod's
 * cgroup is charged. Both are reported.
 */
export function sample(root: number, withPss = true): Sample {
  let rss = 0;
  let pss = 0;
  let ticks = 0;
  let processes = 0;
  const ticksByPid = new Map<number, number>();
  for (const pid of processTree(root)) {
    try {
      rss += kib(`/proc/${pid}/status`, 'VmRSS');
      if (withPss) pss += kib(`/proc/${pid}/smaps_rollup`, 'Pss');
      // utime, stime, cutime and cstime: fields 14 to 17 of stat(5), in USER_HZ (100) ticks.
      const stat = statFields(pid);
      ticks += stat.slice(11, 15).reduce((sum, t) => sum + Number(t), 0);
      ticksByPid.set(pid, ownTicksOf(stat));
      processes++;
    } catch {
      // The process ended while we looked.
    }
  }
  return { rssMiB: rss / 1024, pssMiB: pss / 1024, cpuSeconds: ticks / 100, ticksByPid, processes };
}

const SAMPLE_MS = 200;
/**
 * PSS is read on every tenth sample only (every 2 s). Reading smaps_rollup walks a process's page
 * tables under its mmap lock: every 200 ms over a Chromium tree it slowed the very contenders it
 * measured, the service (more processes, bigger heaps) more than the bare loop (bench:render: bare
 * 22.4 against 25.4 pages/s, service 18.2 against 22.0; docs/decisions.md, Benchmarks).
 */
const PSS_EVERY = 10;

function sampleAll(roots: number[], withPss: boolean): Sample {
  return roots
    .map((root) => sample(root, withPss))
    .reduce((a, b) => ({
      rssMiB: a.rssMiB + b.rssMiB,
      pssMiB: a.pssMiB + b.pssMiB,
      cpuSeconds: a.cpuSeconds + b.cpuSeconds,
      ticksByPid: new Map([...a.ticksByPid, ...b.ticksByPid]),
      processes: a.processes + b.processes,
    }));
}

/** Samples the trees of `roots` (summed) now and every 200 ms until stop(), which samples once more. */
export function startSampling(roots: number[]): { stop(): Sample[] } {
  const samples: Sample[] = [sampleAll(roots, true)];
  const timer = setInterval(
    () => samples.push(sampleAll(roots, samples.length % PSS_EVERY === 0)),
    SAMPLE_MS,
  );
  return {
    stop() {
      clearInterval(timer);
      samples.push(sampleAll(roots, true));
      return samples;
    },
  };
}

export type SampleSummary = ReturnType<typeof summarize>;

/**
 * As startSampling, from a process of its own (bench/sampler.ts), so the sampling's CPU and pauses
 * fall on none of the measured processes nor on a fixture site served from the caller's.
 */
export async function startSamplingElsewhere(roots: number[]): Promise<{ stop(): Promise<SampleSummary> }> {
  const entry = resolve(__dirname, `sampler${__filename.endsWith('.ts') ? '.ts' : '.js'}`);
  const child = fork(entry, roots.map(String), { execArgv: process.execArgv });
  // Its next message; listened for before whatever makes it answer.
  const reply = () =>
    new Promise<unknown>((done, fail) => {
      child.once('message', done);
      child.once('exit', (code) => fail(new Error(`the sampler exited (${code})`)));
    });
  await reply(); // 'ready': the first sample is taken
  return {
    async stop() {
      const summary = reply();
      child.send('stop');
      return (await summary) as SampleSummary;
    },
  };
}

/** The samples of `roots` (see startSampling) while `work` runs. */
export async function sampleWhile<T>(
  roots: number[],
  work: () => Promise<T>,
): Promise<{ result: T; samples: Sample[] }> {
  const sampling = startSampling(roots);
  let samples: Sample[] | undefined;
  try {
    const result = await work();
    samples = sampling.stop();
    return { result, samples };
  } finally {
    if (!samples) sampling.stop();
  }
}

/**
 * Peak RSS and PSS, CPU seconds between the first and last sample, and the most processes seen.
 * CPU is summed process by process (each one's last sample less its first, or all of it if it
 * started later): Chromium's renderers are not reaped into a parent's cutime, so a sum over the
 * processes alive at each end lost what the ones that ended in between had used.
 */
export function summarize(samples: Sample[]) {
  const last = new Map<number, number>();
  for (const s of samples) for (const [pid, ticks] of s.ticksByPid) last.set(pid, ticks);
  let ticks = 0;
  for (const [pid, t] of last) ticks += t - (samples[0].ticksByPid.get(pid) ?? 0);
  return {
    peakRssMiB: Math.max(...samples.map((s) => s.rssMiB)),
    peakPssMiB: Math.max(...samples.map((s) => s.pssMiB)),
    cpuSeconds: ticks / 100,
    processes: Math.max(...samples.map((s) => s.processes)),
  };
}

/** The q-quantile (0..1) of `xs`, nearest rank. */
export function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
