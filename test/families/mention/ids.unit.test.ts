import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { validateAnswer } from '../../../src/families/validate.ts';
import { mention } from '../../../src/families/mention/index.ts';
import { loadConceptIdLists } from '../../../src/families/mention/id-lists.ts';
import { NAMESPACES, type NamespaceRules } from '../../../src/tasks/concept-ids.ts';
import { context, issues } from '../../tasks/helpers.ts';

const TEXT = 'Lidocaine-induced delirium in breast and ovarian cancer with BRCA1.';
const LIDOCAINE = { offset: 0, mention: 'Lidocaine', type: 'Chemical' };
const DELIRIUM = { offset: 18, mention: 'delirium', type: 'Disease' };
const CANCER = { offset: 30, mention: 'breast and ovarian cancer', type: 'Disease' };
const BRCA1 = { offset: 61, mention: 'BRCA1', type: 'Gene' };
const RULES: NamespaceRules = { Chemical: ['MESH'], Disease: ['MESH', 'OMIM'], Gene: ['NCBIGene'] };
const FIXTURES = join(import.meta.dirname, '../../fixtures/concept-ids');

const answer = (list: unknown[], mentionNamespaces?: NamespaceRules, lists?: string) =>
  validateAnswer(
    { mentions: list },
    context({
      tasks: ['MENTION'],
      text: TEXT,
      mentionNamespaces,
      lookups: lists ? { MENTION: loadConceptIdLists(lists) } : undefined,
    }),
  );

describe('MENTION ids: read and stored', () => {
  it('stores ids in their canonical form, keeps an empty list, and leaves out ids not sent', () => {
    const a = answer(
      [
        { ...LIDOCAINE, ids: ['MeSH:D008012'] },
        { ...CANCER, ids: ['MESH:D001943', 'mesh:D010051'] },
        { ...DELIRIUM, ids: [] },
        { ...BRCA1, ids: ['NCBI Gene:672'] },
        { offset: 10, mention: 'induced' },
      ],
      RULES,
    );
    expect(a.errors).toEqual([]);
    expect(a.warnings).toEqual([]);
    expect(a.result.MENTION?.map((m) => m.ids)).toEqual([
      ['MESH:D008012'],
      ['MESH:D001943', 'MESH:D010051'],
      [],
      ['NCBIGene:672'],
      undefined,
    ]);
  });

  it('sends the stored ids back on the wire', () => {
    const stored = answer([{ ...CANCER, ids: ['MESH:D001943', 'MESH:D010051'] }]).result.MENTION ?? [];
    expect(mention.wire.toWire(stored)).toEqual([
      {
        offset: 30,
        mention: 'breast and ovarian cancer',
        type: 'Disease',
        ids: ['MESH:D001943', 'MESH:D010051'],
        confidence: undefined,
        section: undefined,
      },
    ]);
  });

  it('accepts any namespace without rules, and `*` for the types not named', () => {
    expect(answer([{ ...LIDOCAINE, ids: ['CHEBI:6456'] }]).errors).toEqual([]);
    const star = { Gene: ['NCBIGene'], '*': ['MESH'] };
    expect(
      answer(
        [
          { ...LIDOCAINE, ids: ['MESH:D008012'] },
          { ...BRCA1, ids: ['NCBIGene:672'] },
        ],
        star,
      ).errors,
    ).toEqual([]);
    expect(issues(answer([{ ...LIDOCAINE, ids: ['CHEBI:6456'] }], star).errors)).toEqual([
      'mentions[0].ids[0]: namespace CHEBI ("CHEBI:6456") is not accepted for "Chemical" mentions in this challenge (accepted: MESH); send ids of those namespaces, or leave this one out',
    ]);
    expect(issues(answer([{ offset: 10, mention: 'induced', ids: ['NCBIGene:672'] }], star).errors)).toEqual([
      'mentions[0].ids[0]: namespace NCBIGene ("NCBIGene:672") is not accepted for untyped mentions in this challenge (accepted: MESH); send ids of those namespaces, or leave this one out',
    ]);
  });

  it('drops an id given twice in one mention, spelled either way, with a warning', () => {
    const a = answer([{ ...CANCER, ids: ['MESH:D001943', 'MeSH:D001943', 'MESH:D010051'] }], RULES);
    expect(a.errors).toEqual([]);
    expect(a.result.MENTION?.[0].ids).toEqual(['MESH:D001943', 'MESH:D010051']);
    expect(issues(a.warnings)).toEqual([
      'mentions[0].ids[1]: MESH:D001943 is already given as ids[0] of this mention; dropped (give each id of a mention once)',
    ]);
  });

  it('keeps the first of a repeated span and type, ids and all', () => {
    const a = answer([
      { ...DELIRIUM, ids: ['MESH:D003693'] },
      { ...DELIRIUM, ids: ['OMIM:176807'] },
    ]);
    expect(a.result.MENTION?.map((m) => m.ids)).toEqual([['MESH:D003693']]);
    expect(issues(a.warnings)).toEqual(['mentions[1]: repeats mentions[0] (same span [18, 26) and type); dropped']);
  });
});

describe('MENTION ids: refused with their path, nothing stored', () => {
  it.each([
    [
      [DELIRIUM, { ...LIDOCAINE, ids: ['MESH:D008012', 'OMIM:176807'] }],
      'mentions[1].ids[1]: namespace OMIM ("OMIM:176807") is not accepted for "Chemical" mentions in this challenge (accepted: MESH); send ids of those namespaces, or leave this one out',
    ],
    [
      [{ ...CANCER, ids: ['MESH:D001943|D010051'] }],
      'mentions[0].ids[0]: "MESH:D001943|D010051" joins 2 ids in one string; send each as its own item of ids: ["MESH:D001943", "MESH:D010051"]',
    ],
    [
      [{ ...CANCER, ids: ['MESH:D001943; OMIM:114480'] }],
      'mentions[0].ids[0]: "MESH:D001943; OMIM:114480" joins 2 ids in one string; send each as its own item of ids: ["MESH:D001943", "OMIM:114480"]',
    ],
    [
      [{ ...LIDOCAINE, ids: ['D008012'] }],
      'mentions[0].ids[0]: "D008012" has no namespace: send a string "NS:accession" such as "MESH:D003693" (for this mention probably "MESH:D008012"); ids from servers are not given a namespace by the meta-server',
    ],
    [
      [{ offset: 10, mention: 'induced', ids: ['D008012'] }],
      'mentions[0].ids[0]: "D008012" has no namespace: send a string "NS:accession" such as "MESH:D003693"; ids from servers are not given a namespace by the meta-server',
    ],
    [
      [{ ...LIDOCAINE, ids: ['MESH:8012'] }],
      'mentions[0].ids[0]: "MESH:8012": "8012" is not a MeSH accession (D or C and 6 or 9 digits (D003693, C051890))',
    ],
    [[{ ...BRCA1, ids: ['NCBIGene:'] }], 'mentions[0].ids[0]: "NCBIGene:": the accession after the namespace is empty'],
    [[{ ...BRCA1, ids: [672] }], 'mentions[0].ids[0]: expected a string "NS:accession" such as "MESH:D003693", got number 672'],
    [[{ ...BRCA1, ids: 'NCBIGene:672' }], 'mentions[0].ids: expected an array, got string "NCBIGene:672"'],
  ])('%j', (list, message) => {
    const a = answer(list, RULES);
    expect(issues(a.errors)).toEqual([message]);
    expect(a.result.MENTION).toBeUndefined();
  });

  it('keeps a tmVar variant form whole: its "|" are the form, not a composite', () => {
    const text = 'c.1138G>A';
    const a = validateAnswer(
      { mentions: [{ offset: 0, mention: text, type: 'SequenceVariant', ids: ['HGVS:c|SUB|G|1138|A'] }] },
      context({ tasks: ['MENTION'], text }),
    );
    expect(a.errors).toEqual([]);
    expect(a.result.MENTION?.[0].ids).toEqual(['HGVS:c|SUB|G|1138|A']);
  });
});

describe('MENTION ids: release lists', () => {
  const files = ['desc-excerpt.xml', 'supp-excerpt.xml', 'd-excerpt.bin', 'Homo_sapiens.gene_info-excerpt', 'omim-list.txt'];
  const all = files.map((f) => join(FIXTURES, f)).join(',');

  it('reads MeSH XML and ASCII records, gene_info and plain lists, leaving out the records they only refer to', () => {
    const lists = loadConceptIdLists(all);
    const known = (namespace: string, accession: string) => lists.lookup({ namespace, accession })?.known;
    expect(['D003693', 'D008012', 'C051890', 'D000001', 'D000002'].map((a) => known('MESH', a))).toEqual([true, true, true, true, true]);
    // referred to only (see-related, pharmacological action, a supplementary record's heading)
    expect(['D000071257', 'D000779', 'D005702'].map((a) => known('MESH', a))).toEqual([false, false, false]);
    expect([known('NCBIGene', '672'), known('NCBIGene', '7157'), known('NCBIGene', '9606')]).toEqual([true, true, false]);
    expect([known('OMIM', '176807'), known('OMIM', '113705'), known('OMIM', '100100')]).toEqual([true, true, false]);
    expect(lists.lookup({ namespace: 'CHEBI', accession: '6456' })).toBeUndefined();
    expect(lists.release).toBe(
      'MESH 5 ids (desc-excerpt.xml, supp-excerpt.xml, d-excerpt.bin); NCBIGene 2 ids (Homo_sapiens.gene_info-excerpt); OMIM 2 ids (omim-list.txt)',
    );
  });

  it('warns about an id of a listed namespace missing from its list, keeps it, and says nothing of unlisted namespaces', () => {
    const a = answer(
      [
        { ...LIDOCAINE, ids: ['MESH:D008012', 'MESH:D999999'] },
        { ...BRCA1, ids: ['NCBIGene:999999'] },
        { ...DELIRIUM, ids: ['CHEBI:6456'] },
      ],
      undefined,
      all,
    );
    expect(a.errors).toEqual([]);
    expect(a.result.MENTION?.map((m) => m.ids)).toEqual([['MESH:D008012', 'MESH:D999999'], ['NCBIGene:999999'], ['CHEBI:6456']]);
    expect(issues(a.warnings)).toEqual([
      'mentions[0].ids[1]: MESH:D999999 is not in the MeSH release loaded (desc-excerpt.xml, supp-excerpt.xml, d-excerpt.bin); kept — check the accession',
      'mentions[1].ids[0]: NCBIGene:999999 is not in the NCBI Gene release loaded (Homo_sapiens.gene_info-excerpt); kept — check the accession',
    ]);
  });

  it('stops the start on a file that is not a list, naming its line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ids-'));
    const bad = join(dir, 'ids.txt');
    writeFileSync(bad, 'MESH:D003693\nD008012\n');
    expect(() => loadConceptIdLists(bad)).toThrow(
      `${bad}:2: "D008012" is not an id "NS:accession" (MESH:D003693), nor is the file a MeSH or gene_info file`,
    );
    writeFileSync(bad, '# nothing\n');
    expect(() => loadConceptIdLists(bad)).toThrow(/no concept id found/);
  });
});

describe('the protocol document', () => {
  it('lists every namespace with its accession form, as NAMESPACES has them', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../../docs/annotation-server-protocol.md'), 'utf8');
    for (const [name, ns] of Object.entries(NAMESPACES))
      expect(doc).toContain(`| \`${name}\` | ${ns.title} | ${ns.form.replace(/\|/g, '\\|')} |`);
  });
});
