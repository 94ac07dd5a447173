import { promises as fs } from 'node:fs';
import * as path from 'node:path';

export interface CgroupMemory {
  /** Everything charged to the group: anonymous memory and the page cache of the files it read and wrote. */
  usageMb: number;
  /** What the kubelet compares with a pod's limit: usage less the inactive file cache it can drop first. */
  workingSetMb: number;
  /** The page cache within usage. */
  cacheMb: number;
  peakMb: number;
}

const MB = 2 ** 20;

/** A memory cgroup of cgroup v1 or v2, whichever this machine lets us make one in. */
const ROOTS = [
  { dir: '/sys/fs/cgroup/memory', v2: false },
  { dir: '/sys/fs/cgroup/unified', v2: true },
  { dir: '/sys/fs/cgroup', v2: true },
];

/**
 * A memory cgroup the service runs in (the bench's own, made for one instance), so that its whole
 * memory is read as a pod's limit counts it: RSS, and the page cache of every file it touched,
 * which an engine that serves from disk leans on and RSS leaves out.
 */
export class MemoryCgroup {
  private constructor(
    readonly dir: string,
    private readonly v2: boolean,
  ) {}

  /** Null where no cgroup can be made (not root, no memory controller): the bench prints n/a then. */
  static async create(name: string): Promise<MemoryCgroup | null> {
    for (const root of ROOTS) {
      const probe = root.v2 ? 'memory.current' : 'memory.usage_in_bytes';
      const dir = path.join(root.dir, name);
      try {
        await fs.mkdir(dir);
        await fs.access(path.join(dir, probe));
        return new MemoryCgroup(dir, root.v2);
      } catch {
        await fs.rmdir(dir).catch(() => undefined);
      }
    }
    return null;
  }

  /** The file a process writes its pid to, to join. */
  get procsFile(): string {
    return path.join(this.dir, 'cgroup.procs');
  }

  async memory(): Promise<CgroupMemory> {
    const read = async (file: string) => Number((await fs.readFile(path.join(this.dir, file), 'utf8')).trim());
    const stat = new Map(
      (await fs.readFile(path.join(this.dir, 'memory.stat'), 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const [key, value] = line.split(' ');
          return [key, Number(value)] as const;
        }),
    );
    const usage = await read(this.v2 ? 'memory.current' : 'memory.usage_in_bytes');
    const peak = await read(this.v2 ? 'memory.peak' : 'memory.max_usage_in_bytes').catch(() => NaN);
    const inactiveFile = stat.get(this.v2 ? 'inactive_file' : 'total_inactive_file') ?? 0;
    const cache = stat.get(this.v2 ? 'file' : 'total_cache') ?? NaN;
    return { usageMb: usage / MB, workingSetMb: (usage - inactiveFile) / MB, cacheMb: cache / MB, peakMb: peak / MB };
  }

  /**
   * Once its processes are gone: drops the page cache charged to it (which would otherwise stay
   * cached and uncharged to the next group, so a restarted service's reads would cost nothing),
   * then removes it.
   */
  async remove(): Promise<void> {
    const reclaim = this.v2 ? ['memory.reclaim', String(2 ** 40)] : ['memory.force_empty', '0'];
    await fs.writeFile(path.join(this.dir, reclaim[0]), reclaim[1]).catch(() => undefined);
    await fs.rmdir(this.dir).catch(() => undefined);
  }
}
