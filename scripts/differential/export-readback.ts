// Exports read back by BC5CDR's own tool: the figures BC5CDR_Evaluation prints for our
// PubTator exports of a server's MENTION and CREL answers must be the figures the
// leaderboard gives those answers (MENTION's `mention` and `id`; CID through
// `metaserver score CID`'s scorer, on the export). The answers are made from a BC5CDR gold
// file as a fair tagger would answer: every mention but each fourth, each seventh's ids
// replaced by another concept of its document, every CID relation but each third, and one
// relation the gold lacks per document; seeded, so a run is repeatable.
//
//   npx tsx scripts/differential/export-readback.ts GOLD.PubTator BC5CDR_EVAL_JAR OUT_DIR
//
// The jar is the kit's bc5cdr_eval.jar, fetched for the check (never kept here). Prints each
// evaluation's figures from both sides; exits 1 when any differs.

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mention } from '../../src/families/mention/index.ts';
import type { MentionItem } from '../../src/families/mention/types.ts';
import { crel } from '../../src/families/crel/index.ts';
import type { CrelResult } from '../../src/families/crel/types.ts';
import { readCorpusFile } from '../../src/formats/corpus-file.ts';
import type { CorpusDocument } from '../../src/formats/bioc-corpus.ts';
import { annotationIds, formatConceptId, readConceptId } from '../../src/tasks/concept-ids.ts';
import { readCidPubTator, scoreCid } from '../../src/scoring/concept-relations.ts';

const [goldPath, jar, out] = process.argv.slice(2);
if (!goldPath || !jar || !out) {
  console.error('usage: export-readback.ts GOLD.PubTator BC5CDR_EVAL_JAR OUT_DIR');
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const goldText = readFileSync(goldPath, 'utf8');
const documents = readCorpusFile(goldText, goldPath);

/** A fair tagger's answer for one document: what the header says is dropped or changed. */
function answerOf(doc: CorpusDocument, n: { mention: number; relation: number }): { mentions: MentionItem[]; relations: CrelResult } {
  const located = doc.annotations.filter((a) => a.start !== undefined && !a.infons.CompositeRole);
  const allIds = located.flatMap((a) => annotationIds(a.infons, a.type).ids);
  const mentions: MentionItem[] = [];
  for (const a of located) {
    if (++n.mention % 4 === 0) continue;
    let ids = annotationIds(a.infons, a.type).ids;
    if (n.mention % 7 === 0) ids = [allIds.find((id) => !ids.includes(id)) ?? 'MESH:D000001'];
    mentions.push({ start: a.start!, end: a.end!, text: a.text, type: a.type, ids });
  }
  const cid = doc.relations.filter((r) => r.type === 'CID');
  const relations = cid.flatMap((r) => {
    if (++n.relation % 3 === 0) return [];
    const chemical = readConceptId(r.args[0], 'Chemical');
    const disease = readConceptId(r.args[1], 'Disease');
    return chemical && disease ? [{ type: 'CID', concept1: formatConceptId(chemical), concept2: formatConceptId(disease) }] : [];
  });
  // One relation the gold lacks: the first chemical with the last disease the answer's mentions carry.
  const chemical = mentions.find((m) => m.type === 'Chemical' && m.ids?.length)?.ids?.[0];
  const disease = [...mentions].reverse().find((m) => m.type === 'Disease' && m.ids?.length)?.ids?.[0];
  if (chemical && disease && !relations.some((r) => r.concept1 === chemical && r.concept2 === disease))
    relations.push({ type: 'CID', concept1: chemical, concept2: disease });
  const carried = new Set(relations.flatMap((r) => [r.concept1, r.concept2]));
  const crelMentions = mentions
    .filter((m) => m.ids?.some((id) => carried.has(id)))
    .map((m) => ({ start: m.start, end: m.end, text: m.text, type: m.type, ids: m.ids ?? [] }));
  return { mentions, relations: { relations, mentions: crelMentions } };
}

const counter = { mention: 0, relation: 0 };
const answers = documents.map((d) => ({ doc: d, ...answerOf(d, counter) }));
const options = { run: 'T1_S1', sourcedb: 'PubMed' };
const write = (name: string, content: string): string => {
  const path = join(out, name);
  writeFileSync(path, content);
  return path;
};
const mentionFile = write(
  'mentions.pubtator',
  mention.exports.pubtator!(
    answers.map((a) => ({ id: a.doc.id, text: a.doc.text, sections: a.doc.sections, result: a.mentions })),
    options,
  ).files[0].content,
);
const crelFile = write(
  'relations.pubtator',
  crel.exports.pubtator!(
    answers.map((a) => ({ id: a.doc.id, text: a.doc.text, sections: a.doc.sections, result: a.relations })),
    options,
  ).files[0].content,
);

/** What the jar prints: TP, FP, FN, Precision, Recall, F-score. */
function jarFigures(evaluation: string, types: string, prediction: string): Record<string, string> {
  const printed = execFileSync('java', ['-cp', jar, 'ncbi.bc5cdr_eval.Evaluate', evaluation, types, 'PubTator', goldPath, prediction], {
    encoding: 'utf8',
  });
  return Object.fromEntries(printed.split('\n').flatMap((l) => (/^(TP|FP|FN): /.test(l) ? [l.split(': ') as [string, string]] : [])));
}

// The leaderboard's path: gold from the corpus, the answers as an online run.
const goldBody = mention.scoring.corpus!.gold(documents).body;
const gold = mention.scoring.parseGold(goldBody).gold;
const run = mention.scoring.onlineRun(answers.map((a) => ({ doc: a.doc.id, value: a.mentions })));
const board = mention.scoring.score(gold, run, {}).metrics as Record<string, { tp: number; fp: number; fn: number }>;

let differences = 0;
const compare = (what: string, tool: Record<string, string>, ours: { tp: number; fp: number; fn: number }) => {
  const same = Number(tool.TP) === ours.tp && Number(tool.FP) === ours.fp && Number(tool.FN) === ours.fn;
  if (!same) differences++;
  console.log(
    `${what}: BC5CDR tool TP ${tool.TP} FP ${tool.FP} FN ${tool.FN}; ours TP ${ours.tp} FP ${ours.fp} FN ${ours.fn}${same ? '' : '  DIFFERS'}`,
  );
};
compare('mention (export read back; leaderboard)', jarFigures('mention', 'Chemical|Disease', mentionFile), board.mention);
compare('id (export read back; leaderboard)', jarFigures('id', 'Chemical|Disease', mentionFile), board.id);
const types = new Set(['CID']);
const cid = scoreCid(readCidPubTator(goldText, types, goldPath), readCidPubTator(readFileSync(crelFile, 'utf8'), types, crelFile));
compare('relation CID (export read back; metaserver score CID)', jarFigures('relation', 'CID', crelFile), cid);
console.log(`${documents.length} documents; ${differences} difference(s)`);
process.exit(differences > 0 ? 1 : 0);
