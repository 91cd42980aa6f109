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
/** Space freed beyond the reserve before writes resume. */
const RESUME_MARGIN_BYTES = 4 * MB;

export class DiskReserve {
  private lastCheck = 0;
  private free = Infinity;
  private refusing = false;
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

  /**
   * Whether writes are refused: the free space fell below the reserve and has not come back
   * above it by a margin since (so a disk hovering at the reserve does not switch writes off
   * and on with every write). Looked at again when the last look is older than
   * CHECK_EVERY_MS, or at once with `now`.
   */
  full(now = false): boolean {
    const t = Date.now();
    if (now || t - this.lastCheck >= CHECK_EVERY_MS) {
      this.lastCheck = t;
      try {
        const s = statfsSync(this.dir);
        this.free = Number(s.bavail) * Number(s.bsize);
      } catch {
        // The directory cannot be looked at: say nothing about its space (the statements will).
        this.free = Infinity;
      }
      const wasFull = this.refusing;
      this.refusing = this.free < this.reserveBytes + (wasFull ? RESUME_MARGIN_BYTES : 0);
      if (this.refusing && !wasFull) this.refused();
      if (wasFull && !this.refusing) this.condition?.recovered();
    }
    return this.refusing;
  }

  /** A write refused for lack of space: the first of a spell logs the warning. */
  refused(fields: Record<string, unknown> = {}): void {
    this.condition?.failed({ ...fields, freeMb: Math.floor(this.free / MB), reserveMb: this.reserveBytes / MB });
  }
}
