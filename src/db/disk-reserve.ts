// PGlite on a full disk. Measured on a small tmpfs: a write that cannot extend a table file
// fails cleanly (SQLSTATE 53100) and reads go on working; but a write that meets the full
// disk while creating the next 16 MB WAL segment leaves the embedded postgres spinning
// inside its WebAssembly (its PANIC path never returns to us): the next statement never
// answers, and as it holds the event loop, neither does /healthz or SIGTERM — only SIGKILL
// ends it. Nothing inside PGlite avoids that, so the process never lets PGlite get there:
// it watches the data directory's free space and, below a reserve (a WAL segment and room
// for the writes between two looks), makes the session read-only. Reads keep working,
// writes are refused with DatabaseDiskFullError, and once space returns, writes resume.
import { statfsSync } from 'node:fs';
import type { Logger } from '../log.ts';
import { Condition } from '../shared/condition.ts';

/** How often the free space is looked at, at most: statfs is cheap, but not free on every statement. */
const CHECK_EVERY_MS = 200;
const MB = 1024 * 1024;

export class DiskReserve {
  private lastCheck = 0;
  private free = Infinity;
  private readonly condition: Condition | null;

  constructor(
    readonly dir: string,
    readonly reserveBytes: number,
    log?: Logger,
  ) {
    this.condition = log
      ? new Condition({
          name: `the database's disk full (${dir}: less than ${reserveBytes / MB} MB free)`,
          meanwhile: `writes are refused (507 database_disk_full) and requests are put back, reads still work; free space in ${dir} or grow the volume: work resumes by itself`,
          repeats: 'writes refused',
          log,
        })
      : null;
  }

  /** Free bytes at the latest look. */
  get freeBytes(): number {
    return this.free;
  }

  /** Whether the free space is below the reserve, looked at again when the last look is older than CHECK_EVERY_MS (or `now`). */
  full(now = false): boolean {
    const t = Date.now();
    if (now || t - this.lastCheck >= CHECK_EVERY_MS) {
      this.lastCheck = t;
      const wasFull = this.free < this.reserveBytes;
      try {
        const s = statfsSync(this.dir);
        this.free = Number(s.bavail) * Number(s.bsize);
      } catch {
        // The directory cannot be looked at: say nothing about its space (the statements will).
        this.free = Infinity;
      }
      const isFull = this.free < this.reserveBytes;
      if (isFull && !wasFull) this.refused();
      if (wasFull && !isFull) this.condition?.recovered();
    }
    return this.free < this.reserveBytes;
  }

  /** A write refused for lack of space: the first of a spell logs the warning. */
  refused(fields: Record<string, unknown> = {}): void {
    this.condition?.failed({ ...fields, freeMb: Math.floor(this.free / MB), reserveMb: this.reserveBytes / MB });
  }
}
