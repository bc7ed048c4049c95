import { existsSync } from 'node:fs';

/**
 * Flags every Chromium of the worker runs with, each against a known failure: no GPU in a container,
 * no shared-memory files, no traffic of Chromium's own (component updates, sync, field trials), no
 * QUIC, which the egress proxy cannot carry, and no WebRTC UDP, which would go around it: a page's
 * RTCPeerConnection would otherwise send STUN and TURN datagrams to any address it names. The
 * headless shell honours only the `--force-` spelling and the full chromium only the other (both
 * 156, tested in libs/rendering/test/containment.int-spec.ts).
 */
export const CHROMIUM_FLAGS = [
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
  '--mute-audio',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  // A page's popups never open (window.open returns null): none can outlive its page.
  '--block-new-web-contents',
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
 * `--no-sandbox` only where decideSandbox says the sandbox cannot run.
 */
export function chromiumArgs(proxyUrl: string | undefined, sandbox: boolean): string[] {
  return [
    ...CHROMIUM_FLAGS,
    ...(sandbox ? [] : ['--no-sandbox']),
    ...(proxyUrl ? [`--proxy-server=${proxyUrl}`, '--proxy-bypass-list=<-loopback>'] : []),
  ];
}

/** CHROMIUM_PATH, else the headless shell where installed, else undefined (Playwright's own browser). */
export function resolveChromiumPath(configured: string | undefined): string | undefined {
  return configured || DEFAULT_EXECUTABLES.find((path) => existsSync(path));
}
