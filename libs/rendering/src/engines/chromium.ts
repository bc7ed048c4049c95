import { existsSync } from 'node:fs';

/**
 * Flags every Chromium of the worker runs with, each against a known failure: no sandbox or GPU in a
 * container, no shared-memory files, no traffic of Chromium's own (component updates, sync, field
 * trials), and no QUIC, which the egress proxy cannot carry.
 */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
  '--mute-audio',
];

/**
 * Debian's headless shell: measured here at about half the CPU per page of the full chromium. The
 * binary itself first: /usr/bin's is a `sh` wrapper that only runs it (no flags, no environment),
 * which costs a shell process a launch and leaves the browser behind when only the wrapper is killed.
 */
const DEFAULT_EXECUTABLES = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium-headless-shell'];

/**
 * Every request goes through the egress proxy; `<-loopback>` removes Chromium's implicit bypass of
 * localhost, 127.0.0.1/8, [::1] and *.localhost, which would otherwise skip the proxy's policy.
 */
export function chromiumArgs(proxyUrl: string | undefined): string[] {
  return proxyUrl
    ? [...CHROMIUM_FLAGS, `--proxy-server=${proxyUrl}`, '--proxy-bypass-list=<-loopback>']
    : CHROMIUM_FLAGS;
}

/** CHROMIUM_PATH, else the headless shell where installed, else undefined (Playwright's own browser). */
export function resolveChromiumPath(configured: string | undefined): string | undefined {
  return configured || DEFAULT_EXECUTABLES.find((path) => existsSync(path));
}
