// Real corpus files read, stored as our answers and written back: every passage's text is
// found at its offset, every annotation's text is the text at its span, and BioC →
// MENTION answers → BioC / PubTator export gives the same text and the same mentions, and
// the documents' passages and section names come back as the file had them.
// BioC exports validate against the BioC DTD and are read back by Python's own XML parser.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { exportBiocJson, exportBiocXml } from '../../src/families/formats.ts';
import { corpusFormatOf, readCorpusFile } from '../../src/formats/corpus-file.ts';
import { readBiocJson } from '../../src/formats/bioc-json.ts';
import type { BiocCollection } from '../../src/formats/bioc-model.ts';
import { readBiocXml, writeBiocXml } from '../../src/formats/bioc-xml.ts';
import type { CorpusDocument } from '../../src/formats/bioc-corpus.ts';
import { readPubTator, writePubTator } from '../../src/formats/pubtator.ts';
import type { ExportArticle } from '../../src/formats/common.ts';
import { familyOf } from '../../src/families/registry.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
const read = (name: string) => readFileSync(join(fixtures, name), 'utf8');
const fixture = read;
const scratch = mkdtempSync(join(tmpdir(), 'corpus-round-trip-'));
// The export names "BioC.dtd" in its DOCTYPE, as BioC files do: keep a copy beside it.
copyFileSync(join(fixtures, 'bioc', 'BioC.dtd'), join(scratch, 'BioC.dtd'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const cp = (text: string, start: number, end: number) => [...text].slice(start, end).join('');

/** The documents' located annotations as MENTION answers of one "gold" server. */
const asArticles = (docs: CorpusDocument[]): ExportArticle[] =>
  docs.map((d) => ({
    id: d.id,
    text: d.text,
    answers: [
      {
        server: 'gold',
        result: {
          MENTION: d.annotations
            .filter((a) => a.start !== undefined)
            .map((a) => ({ start: a.start!, end: a.end!, text: a.text, type: a.type ?? 'Mention' })),
        } as never,
      },
    ],
  }));
const mentionsOf = (docs: CorpusDocument[]) =>
  docs.map((d) => ({
    id: d.id,
    text: d.text,
    spans: d.annotations
      .filter((a) => a.start !== undefined)
      .map((a) => `${a.start}-${a.end} ${a.type ?? 'Mention'} ${a.text}`)
      .sort(),
  }));

describe('real corpus files', () => {
  it('BioC JSON of the PubTator API: every passage at its offset, every annotation the text at its span', () => {
    const raw = JSON.parse(read('bioc/pubtator-api-34546791.json'));
    const [doc] = readCorpusFile(read('bioc/pubtator-api-34546791.json'), 'api.json');
    let annotations = 0;
    for (const p of raw.passages) {
      expect(cp(doc.text, p.offset, p.offset + [...p.text].length)).toBe(p.text);
      for (const a of p.annotations) {
        const [l] = a.locations;
        expect(cp(doc.text, l.offset, l.offset + l.length)).toBe(a.text);
        annotations++;
      }
    }
    expect(doc.annotations).toHaveLength(annotations);
    expect(doc.sections.map((s) => s.name)).toEqual(['title', 'abstract']);
  });

  it('BioC XML and JSON of the reference library read alike, sentences at their offsets', () => {
    const xml = readCorpusFile(read('bioc/bioc-python-everything.xml'), 'x');
    const json = readCorpusFile(read('bioc/bioc-python-everything.json'), 'j');
    expect(mentionsOf(json)).toEqual(mentionsOf(xml));
    expect(cp(xml[1].text, 34, 45)).toBe('测试Non-ASCII');
  });

  it('PubTator → documents → PubTator gives back every title, abstract and annotation line', () => {
    for (const name of ['pubtator/cdr-sample-4.txt', 'pubtator/tmvar-normalization-3.txt']) {
      const original = read(name);
      const docs = readPubTator(original, name);
      const written = writePubTator(
        docs.map((d) => ({
          id: d.id,
          text: d.text,
          annotations: d.annotations.map((a) => ({ start: a.start!, end: a.end!, type: a.type!, identifier: a.infons.identifier })),
          relations: d.relations.map((r) => ({ type: r.type!, args: r.args })),
        })),
      );
      // Our lines carry six columns: BC5CDR's seventh (individual mentions) and tmVar's extra ones are not kept.
      const six = (text: string) =>
        text
          .split('\n')
          .map((l) =>
            l.includes('|t|') || l.includes('|a|')
              ? l
              : l
                  .split('\t')
                  .slice(0, /^\d+\t\d+\t/.test(l) ? 6 : 4)
                  .join('\t'),
          )
          .filter((l) => l !== '')
          .sort();
      expect(six(written)).toEqual(six(original));
      expect(mentionsOf(readPubTator(written))).toEqual(mentionsOf(docs));
    }
  });

  it('BioC and PubTator → stored answers → BioC XML / JSON / PubTator export: same text, same mentions; the XML is DTD-valid and Python reads it', () => {
    const docs = [
      ...readCorpusFile(read('pubtator/cdr-sample-4.txt'), 'cdr'),
      ...readCorpusFile(read('bioc/bioc-python-everything.xml'), 'py'),
    ];
    const articles = asArticles(docs);
    const xml = exportBiocXml(articles, { date: '2026-11-26' });
    const json = exportBiocJson(articles, { date: '2026-11-26' });
    expect(mentionsOf(readCorpusFile(xml, 'export.xml'))).toEqual(mentionsOf(docs));
    expect(mentionsOf(readCorpusFile(json, 'export.json'))).toEqual(mentionsOf(docs));
    // PubTator export of the MENTION answers (the family's declared format).
    const pubtator = familyOf('MENTION').exports.pubtator!(
      articles.map((a) => ({ id: a.id, text: a.text, result: (a.answers[0].result as Record<string, unknown>).MENTION })),
      { run: 'gold', sourcedb: 'x' },
    );
    expect(pubtator.files[0].name).toBe('gold.MENTION.pubtator');
    const back = readPubTator(pubtator.files[0].content);
    // PubTator holds one line break (title / abstract): other line breaks come back as spaces, one for one, so every span and mention text is kept.
    const spans = (list: CorpusDocument[]) => mentionsOf(list).map((d) => ({ id: d.id, spans: d.spans }));
    expect(spans(back)).toEqual(spans(docs));
    expect(back[0].text).toBe(docs[0].text);
    const file = join(scratch, 'export.xml');
    writeFileSync(file, xml);
    const lint = spawnSync('xmllint', ['--noout', '--dtdvalid', join(fixtures, 'bioc', 'BioC.dtd'), file], { encoding: 'utf8' });
    expect(lint.error, 'xmllint (libxml2-utils) must be installed').toBeUndefined();
    expect(lint.stderr).toBe('');
    // Python's ElementTree: each annotation's text equals the passage text at its location.
    const python = spawnSync('python3', [join(import.meta.dirname, 'bioc_check.py'), file], { encoding: 'utf8' });
    expect(python.stderr).toBe('');
    expect(JSON.parse(python.stdout)).toEqual({
      documents: docs.length,
      annotations: docs.reduce((n, d) => n + d.annotations.filter((a) => a.start !== undefined).length, 0),
      mismatches: 0,
    });
  });
});

describe('sections: the passages of a corpus document written back', () => {
  /** Every passage of the written collection: offset, text and the infons that name it. */
  const passagesOf = (collection: BiocCollection) =>
    collection.documents.map((d) => ({
      id: d.id,
      passages: d.passages.map((p) => ({
        offset: p.offset,
        text: p.text || (p.sentences ?? []).map((s) => s.text).join(' '),
        type: p.infons.type,
        section_type: p.infons.section_type,
      })),
    }));

  it('BioC XML / JSON / the PubTator API document → documents → BioC export: the same passages, offsets and section names', () => {
    for (const [name, read] of [
      ['bioc/pubtator-api-34546791.json', readBiocJson],
      ['bioc/bioc-python-everything.json', readBiocJson],
      ['bioc/bioc-python-everything.xml', readBiocXml],
    ] as const) {
      const original = read(fixture(name));
      const docs = readCorpusFile(fixture(name), name);
      const articles = docs.map((d) => ({ id: d.id, text: d.text, sections: d.sections, answers: [] }));
      for (const written of [readBiocXml(exportBiocXml(articles)), readBiocJson(exportBiocJson(articles))]) {
        // The reference library's passages split into sentences come back whole: the sentences' text, the gaps between them as they stand in the text.
        const expected = passagesOf(original).map((d, i) => ({
          id: d.id,
          passages: d.passages.map((p, j) => ({ ...p, text: written.documents[i].passages[j].text })),
        }));
        expect(passagesOf(written)).toEqual(expected);
        for (const [i, d] of written.documents.entries())
          for (const p of d.passages) expect(cp(docs[i].text, p.offset, p.offset + [...p.text].length)).toBe(p.text);
        expect(readCorpusFile(writeBiocXml(written), 'again').map((d) => d.sections)).toEqual(docs.map((d) => d.sections));
      }
    }
    // Each passage's infons are kept as written, all of them.
    expect(readCorpusFile(fixture('bioc/pubtator-api-34546791.json'), 'api')[0].sections).toEqual([
      { offset: 0, length: 107, name: 'title', infons: expect.objectContaining({ type: 'title', year: '2021' }) },
      { offset: 108, length: 1589, name: 'abstract', infons: { type: 'abstract' } },
    ]);
  });

  it('a passage typed one way and sectioned another (type paragraph, section_type INTRO) keeps both infons', () => {
    const xml =
      '<collection><source/><date/><key/><document><id>d1</id>' +
      '<passage><infon key="type">front</infon><infon key="section_type">TITLE</infon><offset>0</offset><text>A title</text></passage>' +
      '<passage><infon key="type">paragraph</infon><infon key="section_type">INTRO</infon><offset>8</offset><text>First paragraph.</text></passage>' +
      '<passage><infon key="section_type">METHODS</infon><offset>26</offset><text>Methods.</text></passage></document></collection>';
    const [doc] = readCorpusFile(xml, 'pmc.xml');
    expect(doc.sections).toEqual([
      { offset: 0, length: 7, name: 'TITLE', type: 'front', infons: { type: 'front', section_type: 'TITLE' } },
      { offset: 8, length: 16, name: 'INTRO', type: 'paragraph', infons: { type: 'paragraph', section_type: 'INTRO' } },
      { offset: 26, length: 8, name: 'METHODS', infons: { section_type: 'METHODS' } },
    ]);
    const written = readBiocXml(exportBiocXml([{ id: 'd1', text: doc.text, sections: doc.sections, answers: [] }]));
    // The passages' infons are written back as read.
    expect(written.documents[0].passages.map((p) => p.infons)).toEqual([
      { type: 'front', section_type: 'TITLE' },
      { type: 'paragraph', section_type: 'INTRO' },
      { section_type: 'METHODS' },
    ]);
    // A section without infons (stored before they were kept) is written from its name and type.
    const { infons: _infons, ...bare } = doc.sections[2];
    expect(
      readBiocXml(exportBiocXml([{ id: 'd1', text: doc.text, sections: [bare], answers: [] }])).documents[0].passages[1].infons,
    ).toEqual({
      type: 'METHODS',
    });
    expect(readCorpusFile(writeBiocXml(written), 'again')[0].sections).toEqual(doc.sections);
  });

  it('PubTator export: the title section is the t line even when a line break stands inside it; every offset holds', () => {
    const text = 'A title\nin two lines\nThe abstract names aspirin.';
    const sections = [
      { offset: 0, length: 20, name: 'title' },
      { offset: 21, length: 27, name: 'abstract' },
    ];
    const mention = { start: 40, end: 47, type: 'Chemical' };
    const written = writePubTator([{ id: '1', text, sections, annotations: [mention] }]);
    expect(written).toBe('1|t|A title in two lines\n1|a|The abstract names aspirin.\n1\t40\t47\taspirin\tChemical\t\n');
    const [back] = readPubTator(written);
    expect(back.sections).toEqual(sections);
    // Without sections the t line stops at the first LF, as before.
    expect(writePubTator([{ id: '1', text, annotations: [] }]).split('\n')[0]).toBe('1|t|A title');
  });
});

describe('BioC JSON lines (the PubTator3 bulk form)', () => {
  const api = () => JSON.parse(fixture('bioc/pubtator-api-34546791.json'));
  const lines = () =>
    `${JSON.stringify({ ...api(), id: '34546791' })}\n${JSON.stringify(JSON.parse(fixture('bioc/bioc-python-everything.json')))}\n`;

  it('one document or collection per line: every document read, as from the files themselves', () => {
    expect(corpusFormatOf(lines())).toBe('bioc-jsonl');
    expect(corpusFormatOf(fixture('bioc/bioc-python-everything.json'))).toBe('bioc-json');
    const docs = readCorpusFile(lines(), 'bulk.jsonl');
    expect(docs.map((d) => d.id)).toEqual(['34546791', '1', '2']);
    expect(mentionsOf(docs.slice(1))).toEqual(mentionsOf(readCorpusFile(fixture('bioc/bioc-python-everything.json'), 'j')));
    expect(docs[0].text).toBe(readCorpusFile(fixture('bioc/pubtator-api-34546791.json'), 'api')[0].text);
  });

  it('a bad line is refused naming the file and the line', () => {
    const broken = `${lines()}{"id": "3", "passages": [\n`;
    expect(() => readCorpusFile(broken, 'bulk.jsonl')).toThrow(/bulk\.jsonl: line 3: not JSON/);
    const misfit = lines().replace('"offset":108', '"offset":109');
    expect(() => readCorpusFile(misfit, 'bulk.jsonl')).toThrow(/bulk\.jsonl: .*document 34546791/);
    const neither = `${JSON.stringify({ id: 'x' })}\n${lines()}`;
    expect(() => readCorpusFile(neither, 'bulk.jsonl')).toThrow(/bulk\.jsonl: line 1 is neither a collection/);
  });
});
