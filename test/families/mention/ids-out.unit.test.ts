// Concept ids on the way out of MENTION: real corpora's id columns and infons become brat
// normalization lines in gold and runs; every export writes them where its format keeps
// them and our own readers read the same ids back; consensus votes them per kept span.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mention } from '../../../src/families/mention/index.ts';
import { mentionCorpus } from '../../../src/families/mention/corpus.ts';
import { idInfon, mentionBioc } from '../../../src/families/mention/bioc.ts';
import { mentionsOfVote, voteMentions } from '../../../src/families/mention/consensus.ts';
import type { MentionItem } from '../../../src/families/mention/types.ts';
import type { ExportDoc } from '../../../src/families/family.ts';
import { readCorpusFile } from '../../../src/formats/corpus-file.ts';
import { readPubTator } from '../../../src/formats/pubtator.ts';
import { importBrat } from '../../../src/formats/brat.ts';
import { importPubAnnotation } from '../../../src/formats/pubannotation.ts';
import { importBiocJson } from '../../../src/formats/bioc-json.ts';
import { importBiocXml as importXml } from '../../../src/formats/bioc-xml.ts';
import { annotationIds } from '../../../src/tasks/concept-ids.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', name), 'utf8');
const CDR = fixture('pubtator/cdr-sample-4.txt');
const TMVAR = fixture('pubtator/tmvar-normalization-3.txt');

type Converted = { body: { documents: Record<string, { ann: string }> }; warnings: string[]; failures?: unknown[] };
const goldOf = (content: string, file = 'corpus') => mentionCorpus.gold(readCorpusFile(content, file)) as Converted;
const nLines = (c: Converted) => Object.values(c.body.documents).flatMap((d) => d.ann.split('\n').filter((l) => l.startsWith('N')));

describe('corpus gold and runs carry the ids as brat N lines', () => {
  it('BC5CDR (PubTator): 65 mentions, 66 ids, the composite split into two N lines named by its individual mentions', () => {
    const gold = goldOf(CDR);
    expect(gold.failures).toBeUndefined();
    expect(nLines(gold)).toHaveLength(66);
    const ann = gold.body.documents['2224762'].ann.split('\n');
    const t = ann.findIndex((l) => /\tDisease 367 399\t/.test(l));
    const tid = ann[t].split('\t')[0];
    expect(ann.slice(t + 1, t + 3)).toEqual([
      expect.stringMatching(new RegExp(`^N\\d+\\tReference ${tid} MESH:D007674\\trenal dysfunction$`)),
      expect.stringMatching(new RegExp(`^N\\d+\\tReference ${tid} MESH:D008107\\thepatic dysfunction$`)),
    ]);
    // A plain mention: one N line after its T line, its text the mention's.
    expect(gold.body.documents['354896'].ann.split('\n').slice(0, 2)).toEqual([
      'T1\tChemical 0 9\tLidocaine',
      'N1\tReference T1 MESH:D008012\tLidocaine',
    ]);
    expect(gold.warnings.join(' ')).not.toMatch(/id\(s\)/);
  });

  it('BC5CDR\'s "-1" and PubTator\'s "-" mean no id: the T line without N lines', () => {
    const edited = CDR.replace('354896\t0\t9\tLidocaine\tChemical\tD008012', '354896\t0\t9\tLidocaine\tChemical\t-1').replace(
      '354896\t18\t34\tcardiac asystole\tDisease\tD006323',
      '354896\t18\t34\tcardiac asystole\tDisease\t-',
    );
    const gold = goldOf(edited);
    expect(nLines(gold)).toHaveLength(64);
    expect(gold.body.documents['354896'].ann.split('\n').slice(0, 3)).toEqual([
      'T1\tChemical 0 9\tLidocaine',
      'T2\tDisease 18 34\tcardiac asystole',
      'T3\tChemical 90 99\tlidocaine',
    ]);
  });

  it("BC5CDR test set, BioC and PubTator twins: the same mentions and ids; BioC's individual mentions of composites left out", () => {
    const fromPubTator = goldOf(fixture('pubtator/cdr-test-3.txt'));
    const fromBioc = goldOf(fixture('bioc/cdr-test-3.xml'));
    // The N line's text is the individual mention where PubTator's seventh column names it.
    const shape = (c: Converted) =>
      Object.entries(c.body.documents).map(([id, d]) => [id, d.ann.replace(/^(N\d+\tReference T\d+ \S+)\t.*$/gm, '$1')]);
    expect(shape(fromBioc)).toEqual(shape(fromPubTator));
    // 65 mentions: 3 with -1 (none), 2 composites of two ids, 60 of one: 64 ids.
    expect(nLines(fromPubTator)).toHaveLength(64);
    expect(fromPubTator.body.documents['24220752'].ann).toMatch(/^T\d+\tChemical 1027 1038\tbevacizumab$/m);
    const composite = fromPubTator.body.documents['23949582'].ann.split('\n');
    const t = composite.findIndex((l) => l.endsWith('\tDisease 297 317\themorrhagic cystitis'));
    expect(composite.slice(t + 1, t + 3).map((l) => l.replace(/^N\d+\tReference T\d+ /, ''))).toEqual([
      'MESH:D006470\themorrhagic',
      'MESH:D003556\tcystitis',
    ]);
    expect(fromBioc.warnings).toContainEqual(expect.stringMatching(/^4 individual mention\(s\) of composite mentions/));
  });

  it('tmVar: variant ids kept whole with their "|", rs ids as dbSNP; the RSID column stays an infon, not an id', () => {
    const docs = readPubTator(TMVAR);
    expect(docs[0].annotations[1].infons).toEqual({ type: 'DNAMutation', identifier: 'c|SUB|G|Ex2+860|C', RSID: '2234671' });
    const gold = goldOf(TMVAR);
    const lines = nLines(gold);
    expect(lines).toHaveLength(9);
    expect(lines).toContain('N2\tReference T2 HGVS:c|SUB|G|Ex2+860|C\tEx2+860G>C');
    expect(lines).toContain('N1\tReference T1 dbSNP:rs2234671\trs2234671');
    expect(lines).toContain('N2\tReference T2 HGVS:p|SUB|R|987|X\tArg987Ter');
  });

  it('BioC of the PubTator API: identifier infons, bare gene and taxon ids by type, MESH: kept; the annotation without one has none', () => {
    const doc = JSON.parse(fixture('bioc/pubtator-api-34546791.json'));
    doc.id = '34546791';
    const gold = goldOf(JSON.stringify(doc), 'api.json');
    const lines = nLines(gold);
    // 41 annotations, one Disease with a null identifier.
    expect(lines).toHaveLength(40);
    expect(lines.filter((l) => / NCBIGene:/.test(l))).toHaveLength(24);
    expect(lines.filter((l) => / MESH:/.test(l))).toHaveLength(11);
    expect(lines.filter((l) => / NCBITaxon:10090\t/.test(l))).toHaveLength(5);
    expect(gold.body.documents['34546791'].ann.split('\n').slice(0, 2)).toEqual([
      'T1\tGene 0 7\tIKKbeta',
      'N1\tReference T1 NCBIGene:16150\tIKKbeta',
    ]);
  });

  it('BC5CDR\'s BioC "MESH" infon and GNormPlus\'s "NCBI Gene" read as their namespace; the key is kept for export', () => {
    expect(annotationIds({ type: 'Disease', MESH: 'D007674|D008107' }, 'Disease')).toMatchObject({
      ids: ['MESH:D007674', 'MESH:D008107'],
      key: 'MESH',
    });
    expect(annotationIds({ type: 'Gene', 'NCBI Gene': '7157' }, 'Gene')).toMatchObject({ ids: ['NCBIGene:7157'], key: 'NCBI Gene' });
  });

  it('ids that cannot be read or are malformed are left out, counted in a warning; the mention stays', () => {
    const text = '1|t|Aspirin and pain.\n';
    const gold = goldOf(`${text}1\t0\t7\tAspirin\tDrug\tX123\n1\t12\t16\tpain\tDisease\tMESH:12\n`);
    expect(nLines(gold)).toEqual([]);
    expect(gold.body.documents['1'].ann.split('\n')).toEqual(['T1\tDrug 0 7\tAspirin', 'T2\tDisease 12 16\tpain']);
    expect(gold.warnings).toEqual([
      expect.stringMatching(/^1 id\(s\) have no namespace .*\(X123\); left out: write them as NS:accession$/),
      expect.stringMatching(/^1 id\(s\) are not of their namespace's form \(MESH:12\); left out$/),
    ]);
  });

  it.each([
    ['D001943|', /line 3: the id identifier "D001943\|" holds an empty id/],
    ['D001943||D010051', /line 3: .*holds an empty id/],
    ['MESH:', /line 3: .*"MESH:" has no accession after the namespace/],
    [':D001943', /line 3: .*has no namespace/],
  ])('an id column written %s refuses the document, naming its line', (column, reason) => {
    const gold = goldOf(`1|t|Aspirin and pain.\n1|a|None.\n1\t12\t16\tpain\tDisease\t${column}\n`);
    expect(gold.failures).toEqual([{ document: '1', reason: expect.stringMatching(reason) }]);
  });
});

// Two documents of mentions as a server would have them stored.
const TEXT = 'Lidocaine-induced cardiac asystole and renal and/or hepatic dysfunction; rs2234671 and Ex2+860G>C in BRCA1.';
const at = (text: string, from = 0) => {
  const start = [...TEXT].join('').indexOf(text, from);
  return { start, end: start + [...text].length, text };
};
const MENTIONS: MentionItem[] = [
  { ...at('Lidocaine'), type: 'Chemical', ids: ['MESH:D008012'] },
  { ...at('cardiac asystole'), type: 'Disease', ids: ['MESH:D006323'], confidence: 0.5 },
  { ...at('renal and/or hepatic dysfunction'), type: 'Disease', ids: ['MESH:D007674', 'MESH:D008107'] },
  { ...at('rs2234671'), type: 'SNP', ids: ['dbSNP:rs2234671'] },
  { ...at('Ex2+860G>C'), type: 'DNAMutation', ids: ['HGVS:c|SUB|G|Ex2+860|C'] },
  { ...at('BRCA1'), type: 'Gene', ids: ['NCBIGene:672', 'MESH:D019398'] },
  { ...at('asystole'), type: 'Disease', ids: [] },
  { ...at('hepatic'), type: 'Organ' },
];
const DOCS: ExportDoc<MentionItem[]>[] = [{ id: '42', text: TEXT, result: MENTIONS }];
const O = { run: 'T1_S1', sourcedb: 'PubMed' };
const write = (format: keyof typeof mention.exports) => mention.exports[format]!(DOCS, O).files;
/** The ids of each mention, in text order, as read back; undefined and [] both mean "none" where a format cannot tell them apart. */
const idsOf = (mentions: readonly MentionItem[]) =>
  [...mentions].sort((x, y) => x.start - y.start || x.end - y.end).map((m) => `${m.text}: ${(m.ids ?? []).join(' ')}`);
const EXPECTED = idsOf(MENTIONS);

describe('exports write the ids, and our readers read the same ids back', () => {
  it('PubTator: BC5CDR\'s column 6 (bare MeSH for Chemical and Disease, "|" between a composite\'s ids, -1 for none); tmVar forms whole', () => {
    const [file] = write('pubtator');
    const lines = file.content.split('\n').filter((l) => /^42\t\d/.test(l));
    expect(lines.map((l) => l.split('\t').slice(3).join('\t'))).toEqual([
      'Lidocaine\tChemical\tD008012',
      'cardiac asystole\tDisease\tD006323',
      'asystole\tDisease\t-1',
      'renal and/or hepatic dysfunction\tDisease\tD007674|D008107',
      'hepatic\tOrgan\t-',
      'rs2234671\tSNP\trs2234671',
      'Ex2+860G>C\tDNAMutation\tc|SUB|G|Ex2+860|C',
      'BRCA1\tGene\t672|MESH:D019398',
    ]);
    const [doc] = readPubTator(file.content);
    const back = doc.annotations.map((a) => ({ ...a, ids: annotationIds(a.infons, a.type).ids }) as MentionItem);
    expect(idsOf(back)).toEqual(EXPECTED);
  });

  it('brat: one N line per id after its T line, read back by importBrat', () => {
    const ann = write('brat').find((f) => f.name === '42.ann')!.content;
    expect(ann.split('\n').slice(0, 4)).toEqual([
      'T1\tChemical 0 9\tLidocaine',
      'N1\tReference T1 MESH:D008012\tLidocaine',
      'T2\tDisease 18 34\tcardiac asystole',
      'N2\tReference T2 MESH:D006323\tcardiac asystole',
    ]);
    expect(ann).toContain('N6\tReference T5 HGVS:c|SUB|G|Ex2+860|C\tEx2+860G>C');
    expect(idsOf(importBrat(TEXT, ann))).toEqual(EXPECTED);
  });

  it('PubAnnotation: an "identifier" attribute per id on the denotation, read back by importPubAnnotation', () => {
    const json = JSON.parse(write('pubannotation')[0].content);
    expect(json.attributes.filter((a: { subj: string }) => a.subj === 'T3')).toEqual([
      { id: 'A4', subj: 'T3', pred: 'identifier', obj: 'MESH:D007674' },
      { id: 'A5', subj: 'T3', pred: 'identifier', obj: 'MESH:D008107' },
    ]);
    expect(idsOf(importPubAnnotation(json))).toEqual(EXPECTED);
  });

  it('BioC XML and JSON: an "identifier" infon (NS:accession joined by ","), "-" for an empty list; read back the same, empty list kept', () => {
    const codecs = [mentionBioc as never];
    for (const [format, read] of [
      ['bioc-xml', (c: string) => importXml(c, codecs)],
      ['bioc-json', (c: string) => importBiocJson(c, codecs)],
    ] as const) {
      const content = write(format)[0].content;
      if (format === 'bioc-xml') expect(content).toContain('<infon key="identifier">NCBIGene:672,MESH:D019398</infon>');
      const [article] = read(content);
      const back = article.answers[0].result.MENTION as MentionItem[];
      expect(idsOf(back), format).toEqual(EXPECTED);
      expect(back.find((m) => m.text === 'asystole')!.ids, format).toEqual([]);
      expect(back.find((m) => m.text === 'hepatic')!.ids, format).toBeUndefined();
    }
  });

  it("BioC under the corpus's own key: BC5CDR's MESH (bare, \"|\"), GNormPlus's NCBI Gene; read back with the key", () => {
    expect(idInfon(['MESH:D007674', 'MESH:D008107'], 'MESH')).toEqual(['MESH', 'D007674|D008107']);
    expect(idInfon(['NCBIGene:672'], 'NCBI Gene')).toEqual(['NCBI Gene', '672']);
    expect(idInfon(['MESH:D007674', 'OMIM:176807'], 'MESH')).toEqual(['MESH', 'D007674|OMIM:176807']);
    const keyed: ExportDoc<MentionItem[]>[] = [{ id: '7', text: TEXT, result: [{ ...MENTIONS[2], idKey: 'MESH' }] }];
    const content = mention.exports['bioc-xml']!(keyed, O).files[0].content;
    expect(content).toContain('<infon key="MESH">D007674|D008107</infon>');
    const [article] = importXml(content, [mentionBioc]);
    expect(article.answers[0].result.MENTION).toMatchObject([{ ids: ['MESH:D007674', 'MESH:D008107'], idKey: 'MESH' }]);
  });
});

describe('consensus votes the ids of each kept span among the servers that found it', () => {
  const span = { start: 0, end: 9, text: 'Lidocaine', type: 'Chemical' };
  it('worked example: weights 1, 1, 1, 1 at threshold 0.5', () => {
    // A, B, C find the span (3/4 of the weight: kept); D does not. A: D008012; B: D008012 and
    // C012345; C finds it but sends an empty list. The judges are A, B, C (weight 3):
    // D008012 2/3 ≥ 0.5 kept; C012345 1/3 < 0.5 not. Of the total (4) D008012 would be
    // 2/4 — kept here too, but at threshold 0.6 it would need 3 of 4 servers to name it.
    const answers = [
      { serverId: 1, weight: 1, result: [{ ...span, ids: ['MESH:D008012'] }] },
      { serverId: 2, weight: 1, result: [{ ...span, ids: ['MESH:D008012', 'MESH:C012345'] }] },
      { serverId: 3, weight: 1, result: [{ ...span, ids: [] }] },
      { serverId: 4, weight: 1, result: [{ start: 10, end: 17, text: 'induced', type: 'Chemical', ids: ['MESH:D000001'] }] },
    ];
    const vote = voteMentions(answers, 0.5);
    expect(vote.items).toHaveLength(1);
    const [item] = vote.items;
    expect(item.share).toBe(0.75);
    expect(item.ids).toEqual(['MESH:D008012']);
    expect(item.idVotes).toEqual([
      { id: 'MESH:D008012', support: 2, share: 2 / 3 },
      { id: 'MESH:C012345', support: 1, share: 1 / 3 },
    ]);
    expect(mentionsOfVote(vote)[0].ids).toEqual(['MESH:D008012']);
    // At 0.6 the span (3/4) stays and so does D008012 (2/3 of its judges).
    expect(voteMentions(answers, 0.6).items[0].ids).toEqual(['MESH:D008012']);
  });

  it('weights count: a heavy server alone can carry an id; servers without ids are not judges; no judge, no ids', () => {
    const answers = [
      { serverId: 1, weight: 3, result: [{ ...span, ids: ['MESH:D008012'] }] },
      { serverId: 2, weight: 1, result: [{ ...span, ids: ['MESH:D000001'] }] },
      { serverId: 3, weight: 2, result: [{ ...span }] },
    ];
    const [item] = voteMentions(answers, 0.5).items;
    expect(item.ids).toEqual(['MESH:D008012']);
    expect(item.idVotes).toEqual([
      { id: 'MESH:D008012', support: 3, share: 0.75 },
      { id: 'MESH:D000001', support: 1, share: 0.25 },
    ]);
    const [none] = voteMentions([answers[2]], 0.5).items;
    expect(none.ids).toBeUndefined();
    expect(mentionsOfVote({ total: 2, items: [none] })[0]).not.toHaveProperty('ids');
  });
});
