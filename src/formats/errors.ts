// One error type for input that a format module cannot read or write, so callers (HTTP
// routes, the CLI) can answer "your file is wrong" (400) instead of reporting a bug.

export class FormatError extends Error {
  /** The format the problem is in (`jats`, `bioc`, `brat`, …). */
  readonly format: string;

  constructor(format: string, message: string) {
    super(`${format}: ${message}`);
    this.name = 'FormatError';
    this.format = format;
  }
}
