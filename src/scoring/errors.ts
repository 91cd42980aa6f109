// One error type for every bad input the scorer meets, so callers (the CLI, the HTTP
// layer) can tell "the user's file is wrong" apart from a bug, and can point the user at
// the exact file and line instead of printing a stack trace.

export interface ScoringInputErrorPlace {
  /** The file (or input name) the problem is in, when known. */
  file?: string;
  /** 1-based line number, when the problem is on one line. */
  line?: number;
  /** What the user should do about it. */
  hint?: string;
}

export class ScoringInputError extends Error {
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly hint: string | undefined;
  /** The problem alone, without the place prefix that `message` carries. */
  readonly reason: string;

  constructor(reason: string, place: ScoringInputErrorPlace = {}) {
    super(formatMessage(reason, place));
    this.name = this.constructor.name;
    this.reason = reason;
    this.file = place.file;
    this.line = place.line;
    this.hint = place.hint;
  }
}

function formatMessage(reason: string, place: ScoringInputErrorPlace): string {
  let where = '';
  if (place.file !== undefined && place.line !== undefined) where = `${place.file}, line ${place.line}: `;
  else if (place.file !== undefined) where = `${place.file}: `;
  else if (place.line !== undefined) where = `line ${place.line}: `;
  const hint = place.hint ? ` (${place.hint})` : '';
  return `${where}${reason}${hint}`;
}
