import { readFileSync, readdirSync } from 'node:fs';

/** The profile directory each library launches Chromium with, which tells their processes apart. */
const PROFILE_MARKERS = {
  playwright: 'playwright_chromiumdev_profile',
  puppeteer: 'puppeteer_dev_chrome_profile',
} as const;

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

function descendsFrom(pid: number, ancestor: number): boolean {
  for (let p = parentOf(pid); p && p > 1; p = parentOf(p)) if (p === ancestor) return true;
  return false;
}

/**
 * The Chromium browser processes `ancestor` launched through `library` (its descendants only, never
 * another test run's browsers). The browser process is the one without --type (renderers, GPU and
 * utility processes have one, within one string where the full chromium's zygote rewrote its
 * command line); Debian's /usr/bin wrapper is a shell that stays behind, so it is skipped.
 */
export function browserProcesses(library: keyof typeof PROFILE_MARKERS, ancestor = process.pid): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const browser =
      !args[0].endsWith('sh') &&
      args.some((a) => a.includes(PROFILE_MARKERS[library])) &&
      !args.some((a) => a.includes('--type='));
    if (browser && descendsFrom(pid, ancestor)) pids.push(pid);
  }
  // A child the browser has forked but not yet exec'd still shows the browser's command line.
  return pids.filter((pid) => !pids.some((other) => other !== pid && descendsFrom(pid, other)));
}

/** Kills (SIGKILL) the browsers this test process launched through `library`; how many it killed. */
export function killBrowsers(library: keyof typeof PROFILE_MARKERS): number {
  const pids = browserProcesses(library);
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  return pids.length;
}

/** Clock ticks a process has run (user + system), or undefined once it is gone. */
function cpuTicks(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/** Every process of the browsers this test process launched through `library`, browsers included. */
export function chromiumProcesses(library: keyof typeof PROFILE_MARKERS): number[] {
  const browsers = browserProcesses(library);
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (Number.isInteger(pid) && browsers.some((b) => pid === b || descendsFrom(pid, b))) pids.push(pid);
  }
  return pids;
}

/**
 * The processes of `library`'s browsers that ran more than a tenth of the time over `ms` (the
 * renderer of a page that still spins), with their resident memory in MB.
 */
export async function busyChromium(
  library: keyof typeof PROFILE_MARKERS,
  ms = 1000,
): Promise<{ pid: number; type: string; cpuShare: number; rssMb: number }[]> {
  const before = new Map(chromiumProcesses(library).map((pid) => [pid, cpuTicks(pid)]));
  await new Promise((resolve) => setTimeout(resolve, ms));
  const ticksPerMs = 100 / 1000;
  const busy = [];
  for (const [pid, start] of before) {
    const end = cpuTicks(pid);
    if (start === undefined || end === undefined) continue;
    const cpuShare = (end - start) / (ms * ticksPerMs);
    if (cpuShare <= 0.1) continue;
    let status = '';
    let type = 'browser';
    try {
      status = readFileSync(`/proc/${pid}/status`, 'utf8');
      // Processes the zygote forks rewrite their command line into one string.
      type = /--type=(\S+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1] ?? type;
    } catch {
      continue;
    }
    const rss = /^VmRSS:\s+(\d+)/m.exec(status)?.[1];
    busy.push({ pid, type, cpuShare, rssMb: Math.round(Number(rss ?? 0) / 1024) });
  }
  return busy;
}

/**
 * Waits up to `ms` for the browsers of `library` this test process launched to number `count`: a
 * browser killed on close is gone only once the kernel has ended it. The count then.
 */
export async function settledBrowserCount(
  library: keyof typeof PROFILE_MARKERS,
  count: number,
  ms = 5000,
): Promise<number> {
  const until = Date.now() + ms;
  while (browserProcesses(library).length !== count && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return browserProcesses(library).length;
}
