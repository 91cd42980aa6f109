// The plain-text record format of the paper's Figures 1–2: one `key: value` per line,
// records separated by blank lines. Extensions, both needed for hand-written files:
// a line starting with `#` is a comment, and a line starting with whitespace continues
// the previous value (as the figures wrap long values).

export interface RecordEntry {
  /** 1-based line of the record's first field, for error messages. */
  line: number;
  /** In file order; a key may not repeat within a record. */
  fields: Map<string, string>;
}

export class RecordFormatError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(`line ${line}: ${message}`);
    this.name = 'RecordFormatError';
  }
}

const KEY = /^([A-Za-z_][A-Za-z0-9_.-]*)\s*:(.*)$/;

export function parseRecords(text: string): RecordEntry[] {
  const records: RecordEntry[] = [];
  let current: RecordEntry | undefined;
  let lastKey: string | undefined;
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const lineNo = i + 1;
    if (raw.trim() === '') {
      current = undefined;
      lastKey = undefined;
      return;
    }
    if (raw.startsWith('#')) return;
    if (/^\s/.test(raw)) {
      if (!current || lastKey === undefined)
        throw new RecordFormatError('a continuation line (starting with a space) needs a field above it', lineNo);
      const previous = current.fields.get(lastKey) ?? '';
      current.fields.set(lastKey, previous === '' ? raw.trim() : `${previous} ${raw.trim()}`);
      return;
    }
    const m = KEY.exec(raw);
    if (!m) throw new RecordFormatError(`expected "key: value", got "${raw.slice(0, 60)}"`, lineNo);
    if (!current) {
      current = { line: lineNo, fields: new Map() };
      records.push(current);
    }
    if (current.fields.has(m[1])) throw new RecordFormatError(`field "${m[1]}" repeats within one record`, lineNo);
    current.fields.set(m[1], m[2].trim());
    lastKey = m[1];
  });
  return records;
}

/** Writes records; values must be single-line (entity strings and frames always are). */
export function writeRecords(records: readonly Map<string, string>[], header?: string): string {
  const blocks = records.map((fields) =>
    [...fields]
      .map(([key, value]) => {
        if (!KEY.test(`${key}:`)) throw new Error(`cannot write the field name "${key}"`);
        if (/[\r\n]/.test(value)) throw new Error(`field "${key}" has a line break, which the record format cannot hold`);
        return value === '' ? `${key}:` : `${key}: ${value}`;
      })
      .join('\n'),
  );
  const head = header
    ? header
        .split('\n')
        .map((l) => `# ${l}`.trimEnd())
        .join('\n') + '\n\n'
    : '';
  return head + blocks.join('\n\n') + (blocks.length ? '\n' : '');
}
