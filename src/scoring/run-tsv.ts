// A run as a BC II.5 result file (columns: rank, then confidence), so the official
// bc-evaluate can score what the meta-server stored, independently of us:
//   classification  doc  classification  rank  confidence
//   ranked items    doc  item [item B]  rank  confidence
// With both columns present the ranks decide the order and confidence is only range-
// checked, so the ranks written here must reproduce the order the leaderboard used.
import { compareIds } from './ranking.ts';
import type { ActEntry, RankedRun } from './types.ts';

/** A confidence as written: the stored value, exactly (shortest round-trip form). */
function confidenceText(confidence: number | undefined, rank: number): string {
  // A missing confidence only needs to pass the (0,1] range check: the ranks decide.
  return String(confidence ?? 1 / rank);
}

const fileOf = (lines: string[]): string => (lines.length === 0 ? '' : lines.join('\n') + '\n');

/**
 * Classification ranks that reproduce the confidence order: trues get 1, 2, … by
 * confidence descending; falses are walked by rank descending, so the false that comes
 * right after the trues (the least confident, ties by id) gets the highest rank.
 */
export function classificationRunTsv(entries: readonly ActEntry[]): string {
  const conf = (e: ActEntry) => e.confidence ?? 0;
  const trues = entries.filter((e) => e.relevant).sort((a, b) => conf(b) - conf(a) || compareIds(a.doc, b.doc));
  const falses = entries.filter((e) => !e.relevant).sort((a, b) => conf(a) - conf(b) || compareIds(a.doc, b.doc));
  const rows: { doc: string; line: string }[] = [];
  trues.forEach((e, i) => rows.push({ doc: e.doc, line: `${e.doc}\t1\t${i + 1}\t${confidenceText(e.confidence, i + 1)}` }));
  falses.forEach((e, i) => {
    const rank = falses.length - i;
    rows.push({ doc: e.doc, line: `${e.doc}\t0\t${rank}\t${confidenceText(e.confidence, rank)}` });
  });
  // One line per document, in document order: easy to read and to diff.
  return fileOf(rows.sort((a, b) => compareIds(a.doc, b.doc)).map((r) => r.line));
}

/** A ranked run whose entries all carry ranks (online runs): a pair key's TAB separates its columns. */
export function rankedRunTsv(run: RankedRun): string {
  const lines: string[] = [];
  for (const doc of [...run.keys()].sort(compareIds)) {
    const entries = run
      .get(doc)!
      .slice()
      .sort((a, b) => (a.rank as number) - (b.rank as number));
    for (const e of entries) lines.push(`${doc}\t${e.key}\t${e.rank}\t${confidenceText(e.confidence, e.rank as number)}`);
  }
  return fileOf(lines);
}
