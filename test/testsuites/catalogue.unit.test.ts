import { describe, expect, it } from 'vitest';
import {
  CatalogueError,
  entitiesFromRecords,
  entitiesToRecords,
  makeEntity,
  makeSentence,
  sentencesFromRecords,
  sentencesToRecords,
} from '../../src/testsuites/catalogue.ts';
import { catalogueFromJson, catalogueToJson, loadBuiltInCatalogue, parseEntities } from '../../src/testsuites/catalogue-io.ts';
import { parseRecords, writeRecords } from '../../src/testsuites/record-format.ts';
import { slotFeatures } from '../../src/testsuites/sentence-features.ts';

// The paper's Figure 2, its long value wrapped onto an indented continuation line.
const FIGURE_2 = `ID: 25
type: tp
total_number_of_names: 1
list_context:
position: I
typographic_context:
appositive:
source_id: PMID: 14702106
source_type: title
original_form_in_source: Stat-3 is required
  for pulmonary homeostasis during hyperoxia.
slots: <> is required for pulmonary homeostasis during hyperoxia.
`;

describe('record format', () => {
  it('parses records, comments and continuation lines', () => {
    const records = parseRecords('# comment\nID: 1\ndata: p53\n\n\nID: 2\ndata: long\n  value\n');
    expect(records.map((r) => [r.line, Object.fromEntries(r.fields)])).toEqual([
      [2, { ID: '1', data: 'p53' }],
      [6, { ID: '2', data: 'long value' }],
    ]);
    expect(
      writeRecords([
        new Map([
          ['ID', '1'],
          ['empty', ''],
        ]),
      ]),
    ).toBe('ID: 1\nempty:\n');
  });

  it('reports bad lines with their line number', () => {
    expect(() => parseRecords('ID: 1\nno colon here\n')).toThrow(/line 2/);
    expect(() => parseRecords('ID: 1\nID: 2\n')).toThrow(/repeats/);
    expect(() => entitiesFromRecords('ID: 1\ndata: x\n\nID: 1\ndata: y\n', 'e.txt')).toThrow(CatalogueError);
    expect(() => entitiesFromRecords('ID: 1\ndata: x\nlength: many\n', 'e.txt')).toThrow(/e\.txt:1: length must be a number/);
  });

  it("reads the paper's Figure 2 sentence record", () => {
    const [s] = sentencesFromRecords(FIGURE_2);
    expect(s).toMatchObject({
      id: '25',
      type: 'tp',
      text: '<> is required for pulmonary homeostasis during hyperoxia.',
      sourceId: 'PMID: 14702106',
      sourceType: 'title',
      original: 'Stat-3 is required for pulmonary homeostasis during hyperoxia.',
      extra: { typographic_context: '' },
    });
    expect(s.features).toMatchObject({ 'slot.count': 1, 'slot.position': ['I'], list: 'none', appositive: false, 'slot.right': ['none'] });
  });

  it('rejects a stated slot count that disagrees with the frame', () => {
    expect(() => sentencesFromRecords('ID: 1\ntotal_number_of_names: 2\nslots: <> binds DNA.\n')).toThrow(/slot\.count/);
  });

  it('round-trips entities through records (all features and overrides only) and JSON', () => {
    const entities = [
      makeEntity({
        id: '136',
        data: 'death-associated protein 6',
        source: 'HGNC ID: 2681 "Approved Gene Name" field',
        original: 'death-associated protein 6',
      }),
      makeEntity({ id: 'e2', data: 'lethal (2) giant larvae', kind: 'name', features: { plural: true }, extra: { note: 'kept' } }),
      makeEntity({ id: 'e3', data: 'Abdominal-B', kind: 'name' }),
    ];
    const full = entitiesToRecords(entities);
    expect(full).toContain('name_vs_symbol: n\nlength: 3\ncase: all-lower,lower-initial');
    expect(entitiesFromRecords(full)).toEqual(entities);
    expect(entitiesToRecords(entitiesFromRecords(full))).toBe(full);
    // Without feature lines, e2's stated plural is lost: it is recomputed from the string.
    const minimal = entitiesToRecords(entities, { features: 'none' });
    expect(entitiesFromRecords(minimal).map((e) => e.features.plural)).toEqual([false, false, false]);
    expect(catalogueFromJson(catalogueToJson({ entities })).entities).toEqual(entities);
    expect(parseEntities(catalogueToJson({ entities }))).toEqual(entities);
  });

  it('round-trips sentences through records and JSON', () => {
    const sentences = [
      makeSentence({
        id: 's1',
        text: '<> interacts with <> and <> in the two-hybrid system.',
        list: 'coordination',
        sourceId: 'Cohen et al. 2004',
      }),
      makeSentence({ id: 's2', text: 'The aim of the present study is to evaluate the impact on QoL.' }),
      makeSentence({ id: 's3', text: 'The Arabidopsis INNER NO OUTER (<>) gene is essential.', appositive: true }),
    ];
    expect(sentences.map((s) => s.type)).toEqual(['tp', 'fp', 'tp']);
    const text = sentencesToRecords(sentences);
    expect(sentencesFromRecords(text)).toEqual(sentences);
    expect(catalogueFromJson(catalogueToJson({ sentences })).sentences).toEqual(sentences);
    expect(sentences[0].features['slot.position']).toEqual(['I', 'M']);
    expect(sentences[1].features).toMatchObject({ 'fp.typographic': true, keyword: [] });
    expect(sentences[2].features).toMatchObject({ 'slot.left': ['parenthesis'], 'slot.right': ['parenthesis'], keyword: ['gene'] });
  });

  it('computes slot positions and typographic context per slot', () => {
    expect(slotFeatures('<>, <> and <> were upregulated.')).toEqual([
      { position: ['I'], left: 'none', right: 'comma' },
      { position: ['M'], left: 'none', right: 'none' },
      { position: ['M'], left: 'none', right: 'none' },
    ]);
    expect(slotFeatures('Binding was competed by excess <>.')).toEqual([{ position: ['F'], left: 'none', right: 'period' }]);
  });

  it('validates JSON catalogues', () => {
    expect(() => catalogueFromJson('{"entities":[{"id":"x","data":"p53","features":{"length":"4"}}]}', 'c.json')).toThrow(
      /c\.json: entities\[0\]: feature length must be a number/,
    );
    expect(() => catalogueFromJson('[1,2]')).toThrow(CatalogueError);
  });
});

describe('the built-in catalogue', () => {
  it('loads from the module directory with unique ids', async () => {
    const { entities, sentences } = await loadBuiltInCatalogue();
    expect(entities.length).toBeGreaterThanOrEqual(150);
    expect(sentences.length).toBeGreaterThanOrEqual(60);
    expect(new Set(entities.map((e) => e.id)).size).toBe(entities.length);
    // Every entity names a database record by its identifier.
    for (const e of entities)
      expect(e.source, e.id).toMatch(/HGNC:\d+|HGNC ID: \d+|HUGO ID \d+|FBgn\d{7}|UniProt [OPQ]\d[A-Z0-9]{3}\d|MGI:\d+/);
  });
});
