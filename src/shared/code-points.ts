// Offsets in answers count Unicode code points of the text as sent (Python's str
// indexing); JavaScript strings count UTF-16 code units. This maps between the two — the
// one place that does (validation, formats, test suites, the sample annotator).

export class CodePointText {
  readonly text: string;
  private table: Uint32Array | null | undefined;
  private count: number | undefined;

  /**
   * Lazy: most answers (ACT, INT, IPT) never ask for an offset, and building the table of a
   * 100 KB article for each of them cost a fifth of the dispatch CPU time.
   */
  constructor(text: string) {
    this.text = text;
  }

  /** UTF-16 index of each code point (plus one past the end); null when they coincide (all-BMP text). */
  private units(): Uint32Array | null {
    if (this.table !== undefined) return this.table;
    const text = this.text;
    const units = new Uint32Array(text.length + 1);
    let n = 0;
    let pairs = false;
    for (let i = 0; i < text.length; i++) {
      units[n++] = i;
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          i++;
          pairs = true;
        }
      }
    }
    units[n] = text.length;
    this.count = n;
    this.table = pairs ? units.subarray(0, n + 1) : null;
    return this.table;
  }

  /** Length in code points. */
  get length(): number {
    if (this.count === undefined) this.units();
    return this.count!;
  }

  /** UTF-16 index of code point `cp` (0 ≤ cp ≤ length). */
  unitIndex(cp: number): number {
    const units = this.units();
    return units ? units[cp] : cp;
  }

  /** The text between code points [start, end); callers keep 0 ≤ start ≤ end ≤ length. */
  slice(start: number, end: number): string {
    return this.text.slice(this.unitIndex(start), this.unitIndex(end));
  }

  /** Code point index of UTF-16 index `unit` (which must start a code point). */
  codePointIndex(unit: number): number {
    const units = this.units();
    if (!units) return unit;
    let lo = 0;
    let hi = units.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (units[mid] < unit) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** The text between code points [start, end) of a string (one-off; CodePointText for many). */
export function sliceCodePoints(s: string, start: number, end: number): string {
  const text = new CodePointText(s);
  const clamp = (cp: number) => Math.max(0, Math.min(text.length, cp));
  return start >= end ? '' : text.slice(clamp(start), clamp(end));
}

/** Length of a string in code points. */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** Python's string order (code points), as `sorted()` orders strings (DrugProt's evaluation sorts pmids so). */
export function codePointOrder(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
