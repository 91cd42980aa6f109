// Progress of a long import on stderr: documents so far, their rate, and the time left
// estimated from the bytes of the input read against its size (a compressed file's bytes,
// as they are read). One line redrawn on a terminal (at most five times a second), plain
// lines otherwise (logs, CI), one per call.
export interface ProgressIo {
  stderr: (s: string) => void;
  isTty: boolean;
}

const duration = (seconds: number): string => {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
};

export class ImportProgress {
  private readonly started: number;
  private lastDrawn = 0;

  constructor(
    private readonly io: ProgressIo,
    /** What is being done, e.g. "checked" or "sent". */
    private readonly verb: string,
    private readonly totalBytes: number,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  line(documents: number, bytesRead: number): string {
    const seconds = (this.now() - this.started) / 1000;
    const rate = seconds > 0 ? Math.round(documents / seconds) : 0;
    const fraction = this.totalBytes > 0 ? Math.min(1, bytesRead / this.totalBytes) : 1;
    const left = fraction > 0 && fraction < 1 ? `, about ${duration((seconds * (1 - fraction)) / fraction)} left` : '';
    return `${this.verb} ${documents} citations (${Math.round(fraction * 100)}%), ${rate}/s${left}`;
  }

  update(documents: number, bytesRead: number): void {
    if (!this.io.isTty) {
      this.io.stderr(`${this.line(documents, bytesRead)}\n`);
      return;
    }
    const now = this.now();
    if (now - this.lastDrawn < 200) return;
    this.lastDrawn = now;
    this.io.stderr(`\r${this.line(documents, bytesRead)}\u001b[K`);
  }

  done(documents: number): void {
    this.io.stderr(`${this.io.isTty ? '\r' : ''}${this.line(documents, this.totalBytes)}${this.io.isTty ? '\u001b[K' : ''}\n`);
  }
}
