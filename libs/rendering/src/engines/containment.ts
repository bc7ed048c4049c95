/** What the sandbox decision depends on: who the worker runs as and what its operator asked for. */
export interface SandboxInput {
  /** The worker's user id (`process.getuid()`); undefined where the platform has none. */
  uid: number | undefined;
  /** CHROMIUM_NO_SANDBOX=1: the operator turned the sandbox off. */
  noSandbox: boolean;
  nodeEnv: 'development' | 'test' | 'production';
}

/** Whether Chromium runs sandboxed; `warning` says once at start why it does not. */
export type SandboxDecision = { sandbox: true } | { sandbox: false; warning: string };

const UNSANDBOXED = 'Chromium runs without its sandbox: a page that compromises a renderer gets the worker';

/**
 * The sandbox is on wherever it can run. Chromium refuses it to root, which is only accepted on a
 * developer machine or CI: in production a root worker is a deployment mistake (the worker image
 * runs as uid 1000), so it fails at start instead of quietly running every page unsandboxed.
 */
export function decideSandbox({ uid, noSandbox, nodeEnv }: SandboxInput): SandboxDecision {
  if (noSandbox) return { sandbox: false, warning: `${UNSANDBOXED}'s privileges (CHROMIUM_NO_SANDBOX=1)` };
  if (uid !== 0) return { sandbox: true };
  if (nodeEnv === 'production')
    throw new Error(
      'the worker runs as root, where Chromium cannot use its sandbox: run it as a non-root user (the ' +
        'worker image does), or set CHROMIUM_NO_SANDBOX=1 to accept unsandboxed browsers',
    );
  return { sandbox: false, warning: `${UNSANDBOXED}'s privileges (running as root)` };
}

/**
 * The only variables a browser is started with: what Chromium reads for its profile, temporary
 * files, locale and time zone. Everything else of the worker's (database and Redis URLs, keys)
 * stays out of a process that runs page scripts.
 */
const BROWSER_ENV = [
  'HOME',
  'TMPDIR',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'TZ',
  'FONTCONFIG_PATH',
  'FONTCONFIG_FILE',
];
const DEFAULT_PATH = '/usr/local/bin:/usr/bin:/bin';

/** The browser's environment, taken from the worker's (`process.env`) by name. */
export function browserEnvironment(source: NodeJS.ProcessEnv): Record<string, string> {
  const env: Record<string, string> = { PATH: DEFAULT_PATH };
  for (const name of BROWSER_ENV) {
    const value = source[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}
