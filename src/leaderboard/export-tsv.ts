// An online run as a BC II.5 result file (columns: rank, then confidence), so the
// official bc-evaluate can score what the meta-server stored, independently of us.
//   ACT  doc  classification  rank  confidence
//   INT  doc  accession  rank  confidence
//   IPT  doc  accessionA  accessionB  rank  confidence
// With both columns present the ranks decide the order and confidence is only range-
// checked, so the ranks written here must reproduce the order the leaderboard used.
import { compareIds, pairOf, type ActEntry } from '../scoring/index.ts';
import type { RunData } from './inputs.ts';

/** A confidence as written: the stored value, exactly (shortest round-trip form). */
function confidenceText(confidence: number | undefined, rank: number): string {
  // A missing confidence only needs to pass the (0,1] range check: the ranks decide.
  return String(confidence ?? 1 / rank);
}

/**
 * ACT ranks that reproduce the confidence order: trues get 1, 2, … by confidence
 * descending; falses are walked by rank descending, so the false that comes right after
 * the trues (the least confident, ties by id) gets the highest rank.
 */
function actLines(entries: ActEntry[]): string[] {
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
  return rows.sort((a, b) => compareIds(a.doc, b.doc)).map((r) => r.line);
}

/** The TSV text of an online ACT/INT/IPT run; MENTION and COREF have no BC II.5 form. */
export function exportRunTsv(data: RunData): string {
  let lines: string[];
  if (data.task === 'ACT') {
    if (data.mode !== 'confidence') throw new Error('online ACT runs are ordered by confidence');
    lines = actLines(data.entries);
  } else if (data.task === 'INT' || data.task === 'IPT') {
    lines = [];
    for (const doc of [...data.run.keys()].sort(compareIds)) {
      const entries = data.run.get(doc)!.slice().sort((a, b) => (a.rank as number) - (b.rank as number));
      for (const e of entries) {
        const item = data.task === 'INT' ? e.key : pairOf(e.key).join('\t');
        lines.push(`${doc}\t${item}\t${e.rank}\t${confidenceText(e.confidence, e.rank as number)}`);
      }
    }
  } else {
    throw new Error(`${data.task} runs have no BC II.5 TSV form`);
  }
  return lines.length === 0 ? '' : lines.join('\n') + '\n';
}
