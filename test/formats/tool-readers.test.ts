// Each export read back by the reader of the tool it is named after: brat's annotation
// parser (the .ann and the BioNLP .a1/.a2), conlleval and evalbio.pl (CoNLL/BIO), a
// PubAnnotation document check and GNU tar (the tar.gz). The readers of brat and the two
// scorers follow the tools' documented rules (test/support); every round trip must give
// the same spans and types, with line breaks, TABs, characters outside the BMP and nested
// mentions in the text.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exportFiles } from '../../src/articles/export-formats.ts';
import { exportA2, importA2 } from '../../src/formats/a1a2.ts';
import { BIO_DOCUMENT_START, exportBioDocuments, importBio } from '../../src/formats/bio.ts';
import { BratText, exportBrat, importBrat } from '../../src/formats/brat.ts';
import { importPubAnnotation } from '../../src/formats/pubannotation.ts';
import { tarGz } from '../../src/formats/tar-gz.ts';
import { parseA2 } from '../../src/scoring/index.ts';
import type { CorefResult } from '../../src/families/coref/types.ts';
import type { MentionItem } from '../../src/families/mention/types.ts';
import { readBrat } from '../support/brat-reader.ts';
import { conlleval, evalbio, pasteGoldAndRun } from '../support/conll-evaluators.ts';
import { mentionsC, overlappedC, spanOf, TEXT_C } from './sample-articles.ts';

const spansOf = (mentions: readonly MentionItem[]) => mentions.map((m) => ({ start: m.start, end: m.end, text: m.text, type: m.type }));
const byStart = (mentions: readonly MentionItem[]) => [...mentions].sort((a, b) => a.start - b.start || b.end - a.end);

describe('brat .ann, read as brat reads it', () => {
  const { txt, ann } = exportBrat(TEXT_C, mentionsC);

  it('loads without a failed line or a message, as brat 1.3 and later versions read the .txt', () => {
    for (const universalNewlines of [false, true]) {
      const reading = readBrat(txt, ann, { universalNewlines });
      expect(reading.failedLines).toEqual([]);
      expect(reading.messages).toEqual([]);
      expect(reading.textBounds).toHaveLength(mentionsC.length);
    }
  });

  it('writes mentions that cross a line break as fragments, and keeps a TAB in the text column', () => {
    const lines = ann.split('\n');
    const view = new BratText(TEXT_C);
    const at = (m: MentionItem) => [view.toBrat(m.start), view.toBrat(m.end)];
    const [left, ventricle] = at(mentionsC[0]);
    expect(lines[0]).toBe(`T1\tOrgan ${left} ${left + 4};${left + 5} ${ventricle}\tleft ventricle`);
    // It starts with the line break: a zero-width fragment keeps its start.
    expect(lines[1]).toBe(`T2\tOrgan ${left + 4} ${left + 4};${left + 5} ${ventricle}\t ventricle`);
    const [the, wall] = at(mentionsC[2]);
    expect(lines[2]).toBe(`T3\tMulti-tissue_structure ${the} ${the + 3};${the + 4} ${wall}\tthe heart wall`);
    expect(lines[4]).toMatch(/^T5\tTissue \d+ \d+\tliver\tlobules$/);
    expect(lines[7]).toMatch(/^T8\tOrgan \d+ \d+;\d+ \d+\tthe pancreas$/);
    // The .txt brat reads has LF line ends only.
    expect(txt).toBe(TEXT_C.replace('\r\n', '\n'));
  });

  it('gives every mention back with its spans, text and type, on the article and on the .txt', () => {
    expect(importBrat(TEXT_C, ann)).toEqual(mentionsC);
    // What brat itself shows: each fragment is the text between its offsets in the .txt.
    const reading = readBrat(txt, ann);
    const cps = Array.from(txt);
    reading.textBounds.forEach((t, i) => {
      expect(t.type).toBe(mentionsC[i].type);
      expect(t.text).toBe(t.spans.map(([s, e]) => cps.slice(s, e).join('')).join(' '));
      const view = new BratText(TEXT_C);
      expect([view.fromBrat(t.spans[0][0]), view.fromBrat(t.spans.at(-1)![1])]).toEqual([mentionsC[i].start, mentionsC[i].end]);
    });
  });

  it('is a reader that fails lines as brat does', () => {
    // The old writing: TAB and line breaks in the text column turned into spaces.
    const t = spanOf(TEXT_C, 'liver\tlobules');
    expect(readBrat(TEXT_C, `T1\tTissue ${t.start} ${t.end}\tliver lobules\n`).failedLines).toEqual([0]);
    const lv = mentionsC[0];
    expect(readBrat(TEXT_C, `T1\tOrgan ${lv.start} ${lv.end}\tleft ventricle\n`).failedLines).toEqual([0]);
    expect(readBrat(TEXT_C, 'T1 Organ 0 5\tCells\nT2\tOrgan 0 5 Cells\nT3\tOrgan 0 5\tCells\nT3\tOrgan 0 5\tCells\n').failedLines).toEqual([
      0, 1, 3,
    ]);
  });
});

describe('BioNLP .a1/.a2, read by brat and by the scoring parser', () => {
  const text = 'NF-kappa B, a heterodimer of p50 and p65, binds DNA. It is active.';
  const a1 = ['p50', 'p65']
    .map((p, i) => {
      const s = spanOf(text, p);
      return `T${i + 1}\tProtein ${s.start} ${s.end}\t${p}\n`;
    })
    .join('');
  const coref: CorefResult = {
    expressions: [
      { id: 'T3', ...spanOf(text, 'NF-kappa B, a heterodimer of p50 and p65'), min: spanOf(text, 'NF-kappa B') },
      { id: 'T4', ...spanOf(text, 'It') },
    ],
    links: [{ id: 'R1', anaphor: 'T4', antecedent: 'T3', proteins: ['T1', 'T2'] }],
  };

  it('writes the protein list after a TAB, which brat reads without a failed line', () => {
    const a2 = exportA2(coref);
    expect(a2.split('\n')[2]).toBe('R1\tCoref Anaphora:T4 Antecedent:T3\t[T1, T2]');
    const reading = readBrat(text, [a1, a2]);
    expect(reading.failedLines).toEqual([]);
    expect(reading.messages).toEqual([]);
    expect(reading.relations).toEqual([
      {
        id: 'R1',
        type: 'Coref',
        args: [
          ['Anaphora', 'T4'],
          ['Antecedent', 'T3'],
        ],
        tail: '\t[T1, T2]\n',
      },
    ]);
    expect(reading.textBounds.map((t) => [t.id, t.type, t.text])).toEqual([
      ['T1', 'Protein', 'p50'],
      ['T2', 'Protein', 'p65'],
      ['T3', 'Exp', coref.expressions[0].text],
      ['T4', 'Exp', 'It'],
    ]);
    // The space form has four arguments for brat: a failed line.
    expect(readBrat(text, [a1, a2.replace('\t[', ' [')]).failedLines).toEqual([4]);
  });

  it('round-trips through the scoring parser and the importer', () => {
    const a2 = exportA2(coref);
    expect(parseA2(a2).links.map((l) => [l.anaphor, l.antecedent])).toEqual([['T4', 'T3']]);
    expect(importA2(text, a2)).toEqual(coref);
  });
});

describe('CoNLL BIO, scored by conlleval and evalbio.pl', () => {
  const docs = [
    { text: TEXT_C, mentions: mentionsC },
    { text: 'No anatomy here.', mentions: [] },
    { text: '', mentions: [] },
    { text: 'The liver.', mentions: [{ ...spanOf('The liver.', 'liver'), type: 'Organ' }] },
  ];
  const { bio, leftOut } = exportBioDocuments(docs);
  const kept = mentionsC.length - overlappedC.length + 1;

  it('writes -DOCSTART- with the columns of a token line, a blank line after each sentence and document', () => {
    const lines = bio.split('\n');
    expect(lines[0]).toBe(BIO_DOCUMENT_START);
    expect(lines[1]).toBe('');
    expect(bio.endsWith('.\tO\n\n')).toBe(true);
    for (const line of lines) if (line !== '') expect(line.split('\t')).toHaveLength(2);
    // Never two blank lines in a row: each blank line closes one sentence or document line.
    expect(bio).not.toContain('\n\n\n');
    expect(bio.split(BIO_DOCUMENT_START)).toHaveLength(docs.length + 1);
    expect(leftOut).toBe(overlappedC.length);
  });

  it('scores the export of the gold against itself as 100% in both scorers', () => {
    const figures = conlleval(pasteGoldAndRun(bio, bio), '\t');
    expect(figures).toMatchObject({ foundCorrect: kept, foundGuessed: kept, correctChunks: kept, precision: 100, recall: 100, fb1: 100 });
    expect(evalbio(bio, bio)).toEqual({ gold: kept, predicted: kept, complete: kept, left: kept, right: kept });
    expect(evalbio(bio, bio, { singleClass: true })).toEqual({ gold: kept, predicted: kept, complete: kept, left: kept, right: kept });
  });

  it('is scored by both as our scorer would score a run that misses one mention', () => {
    const run = exportBioDocuments(docs.map((d, i) => (i === 3 ? { ...d, mentions: [] } : d))).bio;
    expect(conlleval(pasteGoldAndRun(bio, run), '\t')).toMatchObject({
      foundCorrect: kept,
      foundGuessed: kept - 1,
      correctChunks: kept - 1,
    });
    expect(evalbio(run, bio)).toMatchObject({ gold: kept, predicted: kept - 1, complete: kept - 1 });
  });

  it('would have refused the old layout', () => {
    const old = bio.replace(`${BIO_DOCUMENT_START}\n`, '-DOCSTART- PMC1\n');
    expect(() => conlleval(pasteGoldAndRun(old, old), '\t')).toThrow(/unexpected number of features/);
    expect(() => evalbio(bio.slice(0, -1), bio.slice(0, -1))).toThrow(/missing final empty line/);
  });

  it('gives the kept mentions back, spans and types, and says which were left out', () => {
    const parts = bio.split(`${BIO_DOCUMENT_START}\n\n`).slice(1);
    expect(importBio(TEXT_C, parts[0])).toEqual(spansOf(byStart(mentionsC.filter((m) => !overlappedC.includes(m)))));
    expect(importBio(docs[3].text, parts[3])).toEqual(spansOf(docs[3].mentions));
    const { leftOut: which } = exportBioDocuments([docs[0]]);
    expect(which).toBe(overlappedC.length);
  });
});

describe('PubAnnotation JSON, one document a file, and the tar.gz', () => {
  const rows = [
    { id: 'PMC3', text: TEXT_C, result: { MENTION: mentionsC } },
    { id: 'PMC10', text: 'No anatomy here.', result: { MENTION: [] } },
  ];

  it('writes {text, sourcedb, sourceid, denotations, relations} per document with code-point spans', () => {
    const { files } = exportFiles('pubannotation', 'MENTION', 'server-1', rows, { sourcedb: 'anem-2013' });
    expect(files.map((f) => f.name)).toEqual(['PMC3.json', 'PMC10.json']);
    const doc = JSON.parse(files[0].content);
    expect(Object.keys(doc)).toEqual(['text', 'sourcedb', 'sourceid', 'denotations', 'relations']);
    expect(doc).toMatchObject({ text: TEXT_C, sourcedb: 'anem-2013', sourceid: 'PMC3', relations: [] });
    // PubAnnotation counts characters (Ruby's String#[] on UTF-8): code points.
    const chars = Array.from(doc.text as string);
    for (const [i, d] of (doc.denotations as Array<{ id: string; span: { begin: number; end: number }; obj: string }>).entries()) {
      expect(d.id).toMatch(/^T\d+$/);
      expect(chars.slice(d.span.begin, d.span.end).join('')).toBe(mentionsC[i].text);
      expect(d.obj).toBe(mentionsC[i].type);
    }
    expect(importPubAnnotation(files[0].content)).toEqual(mentionsC);
  });

  it('packs the files into a tar.gz that GNU tar lists and extracts byte for byte', async () => {
    const { files } = exportFiles('pubannotation', 'MENTION', 'server-1', rows, { sourcedb: 'anem-2013' });
    const long = { name: `${'a'.repeat(150)}-𝛼.json`, content: '{}\n' };
    const archive = await tarGz([...files, long]);
    const dir = mkdtempSync(join(tmpdir(), 'metaserver-tgz-'));
    try {
      const listed = execFileSync('tar', ['-tzf', '-'], { input: archive })
        .toString()
        .split('\n')
        .filter((l) => l !== '');
      expect(listed).toEqual(['PMC3.json', 'PMC10.json', long.name]);
      execFileSync('tar', ['-xzf', '-', '-C', dir], { input: archive });
      expect(readdirSync(dir).sort()).toEqual([long.name, 'PMC10.json', 'PMC3.json'].sort());
      for (const f of [...files, long]) expect(readFileSync(join(dir, f.name), 'utf8')).toBe(f.content);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await expect(tarGz([{ name: '../x.json', content: '' }])).rejects.toThrow(/not a plain file name/);
  });
});
