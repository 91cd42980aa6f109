// A small tmpfs of the test's own, to fill: mounting needs root (CAP_SYS_ADMIN), so a test
// asks first whether it may and skips, saying why, when it may not.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmdirSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Tmpfs {
  dir: string;
  /** Bytes free, as statfs says (what the meta-server's reserve looks at). */
  freeBytes(): number;
  unmount(): void;
}

export function mountTmpfs(sizeMb: number): Tmpfs {
  const dir = mkdtempSync(join(tmpdir(), 'tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeMb}m`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (err) {
    rmdirSync(dir);
    throw err;
  }
  return {
    dir,
    freeBytes: () => {
      const s = statfsSync(dir);
      return Number(s.bavail) * Number(s.bsize);
    },
    unmount: () => {
      execFileSync('umount', [dir], { stdio: 'pipe' });
      rmdirSync(dir);
    },
  };
}

/** Why a tmpfs cannot be mounted here (not root, no CAP_SYS_ADMIN, no mount), or null when it can: tried once with 1 MB. */
export function tmpfsUnavailable(): string | null {
  if (process.platform !== 'linux') return 'mounting a tmpfs needs Linux';
  try {
    mountTmpfs(1).unmount();
    return null;
  } catch (err) {
    const stderr = String((err as { stderr?: Buffer }).stderr ?? '').trim();
    return `cannot mount a tmpfs (needs root or CAP_SYS_ADMIN): ${stderr || (err as Error).message}`;
  }
}
