// A condition that may hold for a while (the database unreachable, Redis refusing): one
// warning when it starts, its repeats counted instead of logged, one summary when it is
// over. Without it, an outage logs once per job that meets it: a 60 s PostgreSQL outage
// wrote 14,047 identical warnings, which hid everything else and filled the disk.

/** The part of a logger a condition writes to (pino's Logger has it). */
export interface ConditionLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
  debug(fields: object, message: string): void;
}

export interface ConditionOptions {
  /** What holds, as the log says it: "database unreachable". */
  name: string;
  /** What is done meanwhile, said once when it starts. */
  meanwhile: string;
  /** What each repeat is, for the summary: "requests put back". */
  repeats: string;
  log: ConditionLog;
  /** The clock, in ms (tests give their own). */
  now?: () => number;
}

export class Condition {
  private readonly now: () => number;
  /** When the condition started; null while it does not hold. */
  private since: number | null = null;
  /** Repeats met since it started. */
  private spell = 0;
  private total = 0;
  private lastSeenUp = true;

  constructor(private readonly opts: ConditionOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Whether the thing was up at the last look: a failure, a success, or a check (the health route's). */
  get up(): boolean {
    return this.lastSeenUp;
  }

  /** Every repeat ever met by this process (a counter for /metrics). */
  get occurrences(): number {
    return this.total;
  }

  /** Met once more: the first of a spell logs a warning, the others only a debug line. */
  failed(fields: Record<string, unknown> = {}): void {
    this.total++;
    this.spell++;
    this.lastSeenUp = false;
    if (this.since !== null) {
      this.opts.log.debug({ ...fields, repeats: this.spell }, `${this.opts.name} still`);
      return;
    }
    this.since = this.now();
    const at = new Date(this.since).toISOString();
    this.opts.log.warn({ ...fields, since: at }, `${this.opts.name} since ${at}: ${this.opts.meanwhile}`);
  }

  /** It worked: if the condition held, one line says it is over. Cheap enough to call on every success. */
  recovered(): void {
    this.lastSeenUp = true;
    if (this.since === null) return;
    const ms = this.now() - this.since;
    const { name, repeats } = this.opts;
    this.opts.log.info(
      { ms, repeats: this.spell },
      `${name} no more: it lasted ${(ms / 1000).toFixed(1)} s; ${this.spell} ${repeats} meanwhile`,
    );
    this.since = null;
    this.spell = 0;
  }

  /** A check found it up (the condition, if it held, is over) or down (said by `up`; the log waits for a repeat). */
  checked(up: boolean): void {
    if (up) this.recovered();
    else this.lastSeenUp = false;
  }
}
