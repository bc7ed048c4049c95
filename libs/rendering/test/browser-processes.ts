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
 * utility processes have one); Debian's /usr/bin wrapper is a shell that stays behind, so it is
 * skipped.
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
      !args.some((a) => a.startsWith('--type='));
    if (browser && descendsFrom(pid, ancestor)) pids.push(pid);
  }
  return pids;
}

/** Kills (SIGKILL) the browsers this test process launched through `library`; how many it killed. */
export function killBrowsers(library: keyof typeof PROFILE_MARKERS): number {
  const pids = browserProcesses(library);
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  return pids.length;
}
