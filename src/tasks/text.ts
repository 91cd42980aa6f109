// Offsets in answers count Unicode code points of the text as sent (Python's str
// indexing); JavaScript strings count UTF-16 code units. This maps between the two.

export class CodePointText {
  readonly text: string;
  /** Length in code points. */
  readonly length: number;
  /** UTF-16 index of each code point (plus one past the end); null when they coincide. */
  private readonly units: Uint32Array | null;

  constructor(text: string) {
    this.text = text;
    // Most articles are all-BMP: skip the table and index directly.
    if (!/[\uD800-\uDBFF][\uDC00-\uDFFF]/.test(text)) {
      this.units = null;
      this.length = text.length;
      return;
    }
    const units: number[] = [];
    for (let i = 0; i < text.length; i++) {
      units.push(i);
      const c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) i++;
      }
    }
    this.length = units.length;
    units.push(text.length);
    this.units = Uint32Array.from(units);
  }

  /** UTF-16 index of code point `cp` (0 ≤ cp ≤ length). */
  unitIndex(cp: number): number {
    return this.units ? this.units[cp] : cp;
  }

  /** The text between code points [start, end); callers keep 0 ≤ start ≤ end ≤ length. */
  slice(start: number, end: number): string {
    return this.text.slice(this.unitIndex(start), this.unitIndex(end));
  }

  /** Code point index of UTF-16 index `unit` (which must start a code point). */
  codePointIndex(unit: number): number {
    if (!this.units) return unit;
    let lo = 0;
    let hi = this.units.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.units[mid] < unit) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
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
