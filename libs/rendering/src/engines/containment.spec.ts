import { chromiumArgs } from './chromium';
import { browserEnvironment, decideSandbox } from './containment';

describe('decideSandbox', () => {
  it('keeps the sandbox on for any non-root user, in every mode', () => {
    for (const nodeEnv of ['development', 'test', 'production'] as const)
      expect(decideSandbox({ uid: 1000, noSandbox: false, nodeEnv })).toEqual({ sandbox: true });
  });

  it('turns it off for root on a developer machine or in CI, with a warning that says why', () => {
    for (const nodeEnv of ['development', 'test'] as const) {
      const decision = decideSandbox({ uid: 0, noSandbox: false, nodeEnv });
      expect(decision).toEqual({ sandbox: false, warning: expect.stringContaining('running as root') });
    }
  });

  it('refuses a root worker in production unless the operator opted out', () => {
    expect(() => decideSandbox({ uid: 0, noSandbox: false, nodeEnv: 'production' })).toThrow(
      /runs as root.*CHROMIUM_NO_SANDBOX=1/s,
    );
    expect(decideSandbox({ uid: 0, noSandbox: true, nodeEnv: 'production' })).toEqual({
      sandbox: false,
      warning: expect.stringContaining('CHROMIUM_NO_SANDBOX=1'),
    });
  });

  it('turns it off wherever CHROMIUM_NO_SANDBOX=1 says so, with a warning', () => {
    expect(decideSandbox({ uid: 1000, noSandbox: true, nodeEnv: 'production' })).toEqual({
      sandbox: false,
      warning: expect.stringContaining('CHROMIUM_NO_SANDBOX=1'),
    });
  });

  it('keeps it on where there are no user ids', () => {
    expect(decideSandbox({ uid: undefined, noSandbox: false, nodeEnv: 'production' })).toEqual({
      sandbox: true,
    });
  });
});

describe('chromiumArgs', () => {
  it('passes --no-sandbox only when the sandbox is off', () => {
    expect(chromiumArgs(undefined, true)).not.toContain('--no-sandbox');
    expect(chromiumArgs('http://127.0.0.1:1', false)).toContain('--no-sandbox');
  });

  it('keeps WebRTC off UDP in both spellings, sandbox or not', () => {
    for (const sandbox of [true, false])
      expect(chromiumArgs(undefined, sandbox)).toEqual(
        expect.arrayContaining([
          '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
          '--webrtc-ip-handling-policy=disable_non_proxied_udp',
        ]),
      );
  });
});

describe('browserEnvironment', () => {
  it('passes what Chromium reads and nothing else of the worker', () => {
    const env = browserEnvironment({
      HOME: '/tmp',
      TZ: 'UTC',
      LANG: 'C.UTF-8',
      PATH: '/home/dev/bin:/usr/bin',
      DATABASE_URL: 'mysql://root:pw@db/scraper',
      REDIS_URL: 'redis://:pw@redis',
      KEY_HASH_SECRET: 'k',
      SECRETS_ENCRYPTION_KEY: 'e',
      ADMIN_TOKEN: 't',
      AWS_SECRET_ACCESS_KEY: 'a',
      NODE_OPTIONS: '--require /app/x.js',
    });
    expect(env).toEqual({ HOME: '/tmp', TZ: 'UTC', LANG: 'C.UTF-8', PATH: '/usr/local/bin:/usr/bin:/bin' });
  });
});
