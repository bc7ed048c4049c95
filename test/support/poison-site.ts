import { readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A site whose pages take down the worker that fetches them, as a page that crashes or exhausts
 * its worker would: on each request it finds which of the given processes holds the client end
 * of the connection (the worker's own fetch, or its egress proxy for the browser) and SIGKILLs it
 * before answering. Linux only (/proc).
 */
export interface PoisonSite {
  origin: string;
  /** Requests of a path so far. */
  hits(path: string): number;
  /** Pids killed so far, in order. */
  readonly killed: number[];
  close(): Promise<void>;
}

export async function startPoisonSite(
  workerPids: () => number[],
  onKill: (pid: number) => void,
): Promise<PoisonSite> {
  const hits = new Map<string, number>();
  const killed: number[] = [];
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const pid = ownerOfClientPort(req.socket.remotePort!, workerPids());
    if (pid !== undefined) {
      process.kill(pid, 'SIGKILL');
      killed.push(pid);
      onKill(pid);
    }
    // Nothing comes back: the fetcher is gone (or, if none was found, the page never loads).
    res.socket?.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits: (path) => hits.get(path) ?? 0,
    killed,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The process among `pids` holding the local end of a TCP connection whose local port is `port`. */
function ownerOfClientPort(port: number, pids: number[]): number | undefined {
  const hex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length > 9 && cols[1].endsWith(hex)) inodes.add(cols[9]);
    }
  }
  for (const pid of pids) {
    for (const fd of readdirOrNone(`/proc/${pid}/fd`)) {
      const link = readlinkOrNone(`/proc/${pid}/fd/${fd}`);
      const inode = link && /^socket:\[(\d+)\]$/.exec(link)?.[1];
      if (inode && inodes.has(inode)) return pid;
    }
  }
  return undefined;
}

function readdirOrNone(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function readlinkOrNone(file: string): string | undefined {
  try {
    return readlinkSync(file);
  } catch {
    return undefined;
  }
}
