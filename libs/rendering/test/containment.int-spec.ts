import { createSocket, type Socket } from 'node:dgram';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SCRAPE_DEFAULTS } from '@app/queue-contracts';
import type { Rendering } from '@app/rendering';
import { CHROMIUM_SANDBOX } from '../../../test/fixtures/chromium';
import { browserProcesses } from './browser-processes';
import { startTestRendering } from './test-rendering';

// What a page may do to the machine around the browser: send UDP around the egress proxy with
// WebRTC, or read the worker's secrets from the browser's environment.
const BROWSERS = ['playwright', 'puppeteer'] as const;
/** The variables a browser may be started with (browserEnvironment). */
const CHROMIUM_READS = [
  'HOME',
  'PATH',
  'TMPDIR',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'TZ',
  'FONTCONFIG_PATH',
  'FONTCONFIG_FILE',
];

/** A UDP listener on a refused loopback address: any datagram here went around the proxy. */
interface Trap {
  port: number;
  datagrams: string[];
  socket: Socket;
}

/**
 * A page whose RTCPeerConnection names the trap as its STUN and TURN server. The document stays open
 * until ICE gathering is over (the page says so) or a datagram reaches the trap, so the page is
 * still there when the test looks; without `disable_non_proxied_udp` Chromium sends STUN binding
 * requests to the trap within milliseconds, and gathering waits on their retries.
 */
function rtcSite(trap: Trap): { server: Server; gathered: () => number } {
  let gathered = 0;
  // The documents still open, each ended by the page's report or by a datagram at the trap.
  const open = new Set<() => void>();
  const endAll = () => [...open].forEach((end) => end());
  trap.socket.on('message', endAll);
  const server = createServer((req, res) => {
    if (req.url === '/gathered') {
      gathered++;
      endAll();
      res.end('ok');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.write(`<!doctype html><title>rtc</title><script>
      const server = '127.0.0.2:${trap.port}';
      const pc = new RTCPeerConnection({ iceServers: [
        { urls: 'stun:' + server },
        { urls: 'turn:' + server + '?transport=udp', username: 'u', credential: 'p' },
      ] });
      pc.createDataChannel('leak');
      pc.onicegatheringstatechange = () => {
        if (pc.iceGatheringState === 'complete') fetch('/gathered', { method: 'POST' });
      };
      pc.createOffer().then((offer) => pc.setLocalDescription(offer));
    </script>`);
    const end = () => {
      open.delete(end);
      clearTimeout(bound);
      res.end('<p>rtc page</p>');
    };
    // Bounded: gathering with nothing to gather ends in well under a second.
    const bound = setTimeout(end, 8000);
    open.add(end);
  });
  return { server, gathered: () => gathered };
}

let rendering: Rendering;
let trap: Trap;
let site: ReturnType<typeof rtcSite>;
let origin: string;

beforeAll(async () => {
  const socket = createSocket('udp4');
  socket.bind(0, '127.0.0.2');
  await once(socket, 'listening');
  trap = { socket, port: socket.address().port, datagrams: [] };
  socket.on('message', (msg, from) => trap.datagrams.push(`${msg.length} bytes from ${from.address}`));
  site = rtcSite(trap);
  site.server.listen(0, '127.0.0.1');
  await once(site.server, 'listening');
  origin = `http://127.0.0.1:${(site.server.address() as AddressInfo).port}`;
  rendering = await startTestRendering({ RENDER_IDLE_MS: 200 });
});

afterAll(async () => {
  await rendering?.close();
  site?.server.close();
  trap?.socket.close();
});

const render = (engine: (typeof BROWSERS)[number]) =>
  rendering.service.render({
    url: `${origin}/`,
    index: 0,
    options: { ...SCRAPE_DEFAULTS, render: 'browser', engine, timeout: 20_000 },
    isolationKey: 'containment',
  });

describe.each(BROWSERS)('browser containment: %s', (engine) => {
  it("sends none of a page's WebRTC UDP around the egress proxy", async () => {
    trap.datagrams.length = 0;
    const before = site.gathered();
    const page = await render(engine);
    expect(page.error).toBeUndefined();
    expect(page.markdown).toContain('rtc page');
    // Nothing reached the listener, and the page ran its WebRTC code to the end.
    expect(trap.datagrams).toEqual([]);
    expect(site.gathered()).toBe(before + 1);
  });

  it("starts the browser with none of the worker's environment but what Chromium reads", async () => {
    await render(engine);
    const pids = browserProcesses(engine);
    expect(pids.length).toBeGreaterThan(0);
    // The test process has the worker's variables (global setup), secrets included.
    expect(process.env.KEY_HASH_SECRET).toBeDefined();
    for (const pid of pids) {
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
      const names = environ.map((entry) => entry.slice(0, entry.indexOf('=')));
      expect(names.filter((name) => !CHROMIUM_READS.includes(name))).toEqual([]);
      for (const secret of ['KEY_HASH_SECRET', 'SECRETS_ENCRYPTION_KEY', 'ADMIN_TOKEN', 'DATABASE_URL'])
        expect(environ.join('\n')).not.toContain(process.env[secret]!);
    }
  });

  it('runs with the sandbox exactly when the worker may have it', async () => {
    await render(engine);
    for (const pid of browserProcesses(engine)) {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      expect(args.includes('--no-sandbox')).toBe(!CHROMIUM_SANDBOX);
    }
  });
});
