import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { readCgroup } from './cgroup';

const GiB = 2 ** 30;
let root: string;

/** A fake root: each path (under it) gets its text. */
function fixture(files: Record<string, string>): string {
  root = mkdtempSync(join(tmpdir(), 'cgroup-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

afterEach(() => rmSync(root, { recursive: true, force: true }));

const V2_MOUNT = '30 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw\n';
const V1_MOUNTS =
  '32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct\n' +
  '35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n';

describe('readCgroup', () => {
  it('reads v2 cpu.max and memory.max, and the memory held less inactive file cache', () => {
    const cg = readCgroup(
      fixture({
        'proc/self/cgroup': '0::/kubepods/pod1/worker\n',
        'proc/self/mountinfo': V2_MOUNT,
        'sys/fs/cgroup/kubepods/pod1/worker/cpu.max': '200000 100000\n',
        'sys/fs/cgroup/kubepods/pod1/worker/memory.max': `${2 * GiB}\n`,
        'sys/fs/cgroup/kubepods/pod1/worker/memory.current': '900000000\n',
        'sys/fs/cgroup/kubepods/pod1/worker/memory.stat': 'anon 700000000\ninactive_file 100000000\n',
      }),
    );
    expect(cg).toMatchObject({ cpus: 2, memoryBytes: 2 * GiB });
    expect(cg.memoryUsed()).toBe(800_000_000);
  });

  it('reads `max` as no limit, and takes a limit set on a parent', () => {
    const cg = readCgroup(
      fixture({
        'proc/self/cgroup': '0::/pod/worker\n',
        'proc/self/mountinfo': V2_MOUNT,
        'sys/fs/cgroup/pod/worker/cpu.max': 'max 100000\n',
        'sys/fs/cgroup/pod/worker/memory.max': 'max\n',
        'sys/fs/cgroup/pod/cpu.max': '150000 100000\n',
        'sys/fs/cgroup/pod/memory.max': `${GiB}\n`,
        'sys/fs/cgroup/pod/memory.current': '300000000\n',
      }),
    );
    expect(cg).toMatchObject({ cpus: 1.5, memoryBytes: GiB });
    // The parent's usage: its limit is the one that counts.
    expect(cg.memoryUsed()).toBe(300_000_000);
  });

  it('reads a cgroup namespace, where the mount root is the process cgroup', () => {
    const cg = readCgroup(
      fixture({
        'proc/self/cgroup': '0::/\n',
        'proc/self/mountinfo': '30 23 0:26 /kubepods/pod1 /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n',
        'sys/fs/cgroup/cpu.max': '100000 100000\n',
        'sys/fs/cgroup/memory.max': `${GiB}\n`,
      }),
    );
    expect(cg).toMatchObject({ cpus: 1, memoryBytes: GiB });
  });

  it('reads v1 cpu.cfs_quota_us and memory.limit_in_bytes, -1 and the huge value as no limit', () => {
    const limited = readCgroup(
      fixture({
        'proc/self/cgroup': '4:memory:/docker/abc\n2:cpu,cpuacct:/docker/abc\n0::/\n',
        'proc/self/mountinfo': V1_MOUNTS,
        'sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us': '300000\n',
        'sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us': '100000\n',
        'sys/fs/cgroup/memory/docker/abc/memory.limit_in_bytes': `${2 * GiB}\n`,
        'sys/fs/cgroup/memory/docker/abc/memory.usage_in_bytes': '600000000\n',
        'sys/fs/cgroup/memory/docker/abc/memory.stat': 'cache 1\ntotal_inactive_file 50000000\n',
      }),
    );
    expect(limited).toMatchObject({ cpus: 3, memoryBytes: 2 * GiB });
    expect(limited.memoryUsed()).toBe(550_000_000);
    rmSync(root, { recursive: true });
    const unlimited = readCgroup(
      fixture({
        'proc/self/cgroup': '4:memory:/\n2:cpu,cpuacct:/\n',
        'proc/self/mountinfo': V1_MOUNTS,
        'sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '-1\n',
        'sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000\n',
        'sys/fs/cgroup/memory/memory.limit_in_bytes': '9223372036854771712\n',
      }),
    );
    expect(unlimited).toMatchObject({ cpus: undefined, memoryBytes: undefined });
    expect(unlimited.memoryUsed()).toBeUndefined();
  });

  it('prefers a v1 controller on a hybrid host, whose unified hierarchy holds none', () => {
    const cg = readCgroup(
      fixture({
        'proc/self/cgroup': '4:memory:/api/x\n1:cpu:/\n0::/\n',
        'proc/self/mountinfo':
          '32 31 0:29 / /sys/fs/cgroup/cpu rw - cgroup cgroup rw,cpu\n' +
          '35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n' +
          '41 31 0:38 / /sys/fs/cgroup/unified rw - cgroup2 cgroup2 rw\n',
        'sys/fs/cgroup/memory/api/x/memory.limit_in_bytes': `${2 * GiB}\n`,
      }),
    );
    expect(cg).toMatchObject({ cpus: undefined, memoryBytes: 2 * GiB });
  });

  it('finds no limits where the files are absent (no cgroup, or not Linux)', () => {
    const none = readCgroup(fixture({}));
    expect(none).toMatchObject({ cpus: undefined, memoryBytes: undefined });
    expect(none.memoryUsed()).toBeUndefined();
    rmSync(root, { recursive: true });
    const noFiles = readCgroup(fixture({ 'proc/self/cgroup': '0::/w\n', 'proc/self/mountinfo': V2_MOUNT }));
    expect(noFiles).toMatchObject({ cpus: undefined, memoryBytes: undefined });
  });
});
