// PubAnnotation answers as real annotators and PubAnnotation itself write them
// (test/fixtures/pubannotation/, sources in its README): every denotation read, whatever
// track it is in; a denotation without a type kept as an untyped mention with a warning,
// not the whole answer lost; every dropped part named in a warning; CR named when it is
// why the answer's text is not the text sent.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readAnswerNow } from '../../src/dispatch/decode-and-validate.ts';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../fixtures/pubannotation/${name}`, import.meta.url), 'utf8')) as Record<string, unknown> & {
    text: string;
  };
const indexes = { accessions: null, lookups: {} };

function read(body: unknown, text: string, mentionTypes?: string[], mentionNamespaces?: Record<string, string[]>) {
  const answer = readAnswerNow(
    Buffer.from(JSON.stringify(body)),
    undefined,
    { tasks: ['MENTION'], text, given: '', ...(mentionTypes ? { mentionTypes } : {}), ...(mentionNamespaces ? { mentionNamespaces } : {}) },
    indexes,
    'pubannotation',
  );
  if (answer.kind !== 'value') throw new Error(`expected a value, got ${JSON.stringify(answer)}`);
  const { MENTION } = JSON.parse(answer.value.result ?? '{}') as {
    MENTION?: Array<{ start: number; end: number; text: string; type?: string; ids?: string[] }>;
  };
  return { mentions: MENTION ?? [], errors: answer.value.firstErrors, warnings: answer.value.firstWarnings, value: answer.value };
}

describe('a real PubTator document as PubAnnotation serves it', () => {
  const doc = fixture('pubtator-pmc7646410-passage.json');

  it('all six denotations become mentions whose text is the text at their span, each with the MeSH id of its pubann:denotes attribute', () => {
    const { mentions, errors, warnings } = read(doc, doc.text);
    expect(errors).toEqual([]);
    expect(mentions.map((m) => [m.text, m.type])).toEqual([
      ['Myocardial injury', 'Disease'],
      ['mortality', 'Disease'],
      ['coronary syndrome', 'Disease'],
      ['demand ischemia, injury owing to disseminated intravascular coagulation', 'Disease'],
      ['myocarditis', 'Disease'],
      ['cardiomyopathy', 'Disease'],
    ]);
    const chars = [...doc.text];
    for (const m of mentions) expect(m.text).toBe(chars.slice(m.start, m.end).join(''));
    expect(mentions).toHaveLength(6);
    // PubTator's MeSH ids, as PubAnnotation serves them: attributes with pred pubann:denotes.
    expect(mentions.map((m) => m.ids)).toEqual([
      ['MESH:D009202'],
      ['MESH:D003643'],
      ['MESH:D054058'],
      ['MESH:D004211'],
      ['MESH:D009205'],
      ['MESH:D009202'],
    ]);
    expect(warnings).toEqual([]);
  });

  it('a denotation with "obj": null and one without obj are kept as untyped mentions, with one warning naming both; the other four keep their type', () => {
    const denotations = structuredClone(doc.denotations) as Array<Record<string, unknown>>;
    denotations[2].obj = null;
    delete denotations[4].obj;
    const { mentions, errors, warnings } = read({ ...doc, denotations, attributes: [] }, doc.text);
    expect(errors).toEqual([]);
    expect(mentions).toHaveLength(6);
    expect(mentions.map((m) => m.type ?? null)).toEqual(['Disease', 'Disease', null, 'Disease', null, 'Disease']);
    expect(warnings).toEqual([
      {
        path: 'denotations[2].obj',
        message: '2 denotations without a type ("obj" null or absent: denotations[2], denotations[4]) kept as untyped mentions',
      },
    ]);
  });

  it('text sent back with the CR LF the server read is refused, and the error says CR is the only difference', () => {
    // The article had CR LF line ends; the meta-server sent each CR before a LF as a space.
    const original = `${doc.text}\r\nSecond line.\r\n`;
    const sent = original.replace(/\r\n/g, ' \n');
    const { errors } = read({ ...doc, text: original }, sent);
    expect(errors).toEqual([
      {
        path: 'text',
        message:
          "the answer's text has 2 carriage returns (CR) and the text sent has none: the carriage returns are the only difference. The meta-server never sends CR (a CR before a LF goes as a space, a lone CR as a LF, one for one), so the server read its text elsewhere or added them; spans must refer to the text exactly as sent",
      },
    ]);
    // CR LF line ends of the server's own, before line ends sent as LF alone: the same.
    const lf = `${doc.text}\nSecond line.\n`;
    expect(read({ ...doc, text: lf.replace(/\n/g, '\r\n') }, lf).errors[0].message).toMatch(
      /has 2 carriage returns \(CR\) and the text sent has none: the carriage returns are the only difference/,
    );
    // Another difference as well as CR: both said.
    const other = read({ ...doc, text: original.replace('Second', 'Third') }, sent).errors;
    expect(other[0].message).toMatch(
      /has 2 carriage returns \(CR\).*the texts differ otherwise too \(first at character 317 of the text sent\)/,
    );
    // No CR: the plain message, as before.
    expect(read({ ...doc, text: 'another text' }, doc.text).errors[0].message).toMatch(
      /^the answer's text differs from the text sent \(first at character 0\)/,
    );
  });
});

describe('the multi-track form', () => {
  const doc = fixture('annotation-format-tracks.json');

  it("every track's denotations are read, in track order", () => {
    const { mentions, errors, warnings } = read(doc, doc.text);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    expect(mentions.map((m) => [m.start, m.end, m.text])).toEqual([
      [16, 28, 'localization'],
      [32, 40, 'sulfated'],
      [64, 71, 'sulfate'],
      [86, 116, 'macular corneal dystrophy type'],
      [86, 118, 'macular corneal dystrophy type I'],
    ]);
    expect(mentions[3].type).toBe('https://acgg.asia/db/diseases/gdgdb?con_ui=CON00391');
  });

  it("a track's dropped parts are named with its project; errors name the track's denotation", () => {
    const tracks = structuredClone(doc.tracks) as Array<Record<string, unknown>>;
    tracks[1].relations = [{ id: 'R1', subj: '_T1', pred: 'equivalentTo', obj: '_T2' }];
    tracks[1].modifications = [
      { id: 'M1', pred: 'Speculation', obj: '_T1' },
      { id: 'M2', pred: 'Negation', obj: '_T2' },
    ];
    tracks[0].attributes = [
      { id: 'A1', subj: 'T1', pred: 'confidence', obj: 0.5 },
      { id: 'A2', subj: 'T5', pred: 'uncertain', obj: true },
    ];
    const { mentions, warnings, errors } = read({ ...doc, tracks }, doc.text);
    expect(errors).toEqual([]);
    expect(mentions[0]).toMatchObject({ text: 'localization', confidence: 0.5 });
    expect(warnings).toEqual([
      {
        path: 'tracks[0].attributes',
        message:
          '1 attribute in tracks[0] (project "GO-BP") ignored (pred "uncertain"): only confidence, rank, section, type and ids (denotes, identifier…) are read',
      },
      {
        path: 'tracks[1].modifications',
        message:
          '2 modifications in tracks[1] (project "GlycoBiology-GDGDB") ignored: no task of this challenge reads modifications (negation, speculation)',
      },
      {
        path: 'tracks[1].relations',
        message:
          '1 relation in tracks[1] (project "GlycoBiology-GDGDB") ignored: only a relation (pred) between two denotations with concept ids is read, as a relation between concepts (concept_relations)',
      },
    ]);

    const broken = structuredClone(doc.tracks) as Array<{ denotations: Array<Record<string, unknown>> }>;
    broken[1].denotations[1].span = { begin: 86, end: 500 };
    expect(read({ ...doc, tracks: broken }, doc.text).errors).toEqual([
      {
        path: 'tracks[1].denotations[1].span',
        message: 'the span [86, 500) runs past the end of the text (119 characters, counted as code points)',
      },
    ]);
    // The validators' findings are named by the track's denotation too.
    const typed = read(doc, doc.text, ['https://purl.obolibrary.org/obo/GO_0051179', 'https://purl.obolibrary.org/obo/GO_0051923']);
    expect(typed.errors.map((e) => e.path)).toEqual(['tracks[1].denotations[0].obj', 'tracks[1].denotations[1].obj']);
    expect(read({ ...doc, tracks: 'GO-BP' }, doc.text).errors).toEqual([
      { path: 'tracks', message: 'expected an array of tracks [{project, denotations, …}]' },
    ]);
  });
});

describe('parts no task reads', () => {
  it("relations between the documentation's example denotations are named as ignored; the four denotations are mentions", () => {
    const doc = fixture('annotation-format-relations.json');
    const { mentions, warnings, errors } = read(doc, doc.text);
    expect(errors).toEqual([]);
    expect(mentions.map((m) => m.text)).toEqual(['IRF-4', 'IFN-α', 'expression', 'induced']);
    expect(warnings).toEqual([
      {
        path: 'relations',
        message:
          '3 relations ignored: only a relation (pred) between two denotations with concept ids is read, as a relation between concepts (concept_relations)',
      },
    ]);
  });

  it('a discontinuous span in the bagging form is dropped with a warning, not the answer', () => {
    const doc = fixture('annotation-format-bagging.json');
    const denotations = [...(doc.denotations as unknown[]), { id: 'T3', span: { begin: 15, end: 19 }, obj: 'UBERON:0002048' }];
    const { mentions, warnings, errors } = read(
      { ...doc, denotations, blocks: [{ id: 'B1', span: { begin: 0, end: 19 }, obj: 'Sentence' }] },
      doc.text,
    );
    expect(errors).toEqual([]);
    expect(mentions).toEqual([{ start: 15, end: 19, text: 'lung', type: 'UBERON:0002048' }]);
    expect(warnings).toEqual([
      { path: 'blocks', message: '1 block ignored: no task of this challenge reads blocks (spans of text with no mention)' },
      { path: 'denotations[0].span', message: 'a discontinuous span (2 pieces) dropped: a mention is one span of text' },
    ]);
  });
});

describe("PubDictionaries' denotations (no id, a score of their own)", () => {
  it("a numeric score is the mention's confidence; an abbreviation's kind in score is named as not read", () => {
    const doc = fixture('pubdictionaries-shape.json');
    const { mentions, errors, warnings } = read(doc, doc.text);
    expect(errors).toEqual([]);
    expect(mentions).toEqual([
      { start: 0, end: 21, text: 'Tumor necrosis factor', ids: ['NCBIGene:7124'], confidence: 0.92 },
      { start: 23, end: 26, text: 'TNF', ids: ['NCBIGene:7124'] },
      { start: 36, end: 45, text: 'apoptosis', ids: ['GO:0006915'], confidence: 1 },
    ]);
    expect(warnings).toEqual([
      {
        path: 'denotations[1].score',
        message: '1 score not read as a confidence (a number in (0, 1]): denotations[1] ("regAbbreviation")',
      },
    ]);
  });
});

describe('concept ids in PubAnnotation answers', () => {
  const text = 'Lidocaine-induced delirium; water; BRCA1 in Homo sapiens.';
  const at = (begin: number, end: number, obj?: unknown, id?: string) => ({ ...(id ? { id } : {}), span: { begin, end }, obj });

  it('an obj that is an id (NS:accession or a URI of OBO, MeSH RDF, identifiers.org, NCBI) makes an untyped mention with it', () => {
    const { mentions, errors, warnings } = read(
      {
        text,
        denotations: [
          at(0, 9, 'http://id.nlm.nih.gov/mesh/2024/D008012'),
          at(18, 26, 'MeSH:D003693'),
          at(28, 33, 'http://purl.obolibrary.org/obo/CHEBI_15377'),
          at(35, 40, 'https://identifiers.org/ncbigene:672'),
          at(44, 56, 'http://purl.obolibrary.org/obo/NCBITaxon_9606'),
        ],
      },
      text,
    );
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    expect(mentions.map((m) => [m.text, m.type, m.ids])).toEqual([
      ['Lidocaine', undefined, ['MESH:D008012']],
      ['delirium', undefined, ['MESH:D003693']],
      ['water', undefined, ['CHEBI:15377']],
      ['BRCA1', undefined, ['NCBIGene:672']],
      ['Homo sapiens', undefined, ['NCBITaxon:9606']],
    ]);
  });

  it('ties of one span (PubDictionaries sends each entry) make one mention with their ids; a type attribute types it; a type obj with a namespace-named attribute keeps both', () => {
    const { mentions, errors, warnings } = read(
      {
        text,
        denotations: [at(18, 26, 'MESH:D003693', 'T1'), at(18, 26, 'OMIM:123456', 'T2'), at(35, 40, 'Gene', 'T3')],
        attributes: [
          { id: 'A1', subj: 'T1', pred: 'type', obj: 'Disease' },
          { id: 'A2', subj: 'T3', pred: 'NCBI Gene', obj: '672' },
          { id: 'A3', subj: 'T3', pred: 'identifier', obj: 'https://www.ncbi.nlm.nih.gov/gene/672' },
        ],
      },
      text,
    );
    expect(errors).toEqual([]);
    expect(mentions.map((m) => [m.text, m.type, m.ids])).toEqual([
      ['delirium', 'Disease', ['MESH:D003693']],
      ['delirium', undefined, ['OMIM:123456']],
      ['BRCA1', 'Gene', ['NCBIGene:672']],
    ]);
    expect(warnings.map((w) => w.message)).toEqual([
      'NCBIGene:672 is already given as ids[0] of this mention; dropped (give each id of a mention once)',
    ]);
  });

  it('untyped ties merge; a type that is a word or an unknown URI stays the type', () => {
    const { mentions } = read(
      {
        text,
        denotations: [at(18, 26, 'MESH:D003693'), at(18, 26, 'OMIM:123456'), at(0, 9, 'Chemical'), at(28, 33, 'https://example.org/x/1')],
      },
      text,
    );
    expect(mentions.map((m) => [m.text, m.type, m.ids])).toEqual([
      ['delirium', undefined, ['MESH:D003693', 'OMIM:123456']],
      ['Lidocaine', 'Chemical', undefined],
      ['water', 'https://example.org/x/1', undefined],
    ]);
  });

  it('a relation between two denotations with ids is a relation between their concepts (CREL); one whose end has no id is named as ignored', () => {
    const body = {
      text,
      denotations: [at(0, 9, 'MESH:D008012', 'T1'), at(18, 26, 'Disease', 'T2'), at(28, 33, 'Chemical', 'T3')],
      attributes: [{ id: 'A1', subj: 'T2', pred: 'pubann:denotes', obj: 'MESH:D003693' }],
      relations: [
        { id: 'R1', subj: 'T1', pred: 'CID', obj: 'T2' },
        { id: 'R2', subj: 'T3', pred: 'CID', obj: 'T2' },
      ],
    };
    const answer = readAnswerNow(
      Buffer.from(JSON.stringify(body)),
      undefined,
      { tasks: ['MENTION', 'CREL'], text, given: '' },
      indexes,
      'pubannotation',
    );
    if (answer.kind !== 'value') throw new Error(`expected a value, got ${JSON.stringify(answer)}`);
    expect(answer.value.firstErrors).toEqual([]);
    expect(answer.value.firstWarnings).toEqual([
      {
        path: 'relations',
        message:
          '1 relation ignored: only a relation (pred) between two denotations with concept ids is read, as a relation between concepts (concept_relations)',
      },
    ]);
    const { CREL } = JSON.parse(answer.value.result ?? '{}') as { CREL?: { relations: unknown[]; mentions: Array<{ text: string }> } };
    expect(CREL?.relations).toEqual([{ type: 'CID', concept1: 'MESH:D003693', concept2: 'MESH:D008012' }]);
    expect(CREL?.mentions.map((m) => m.text)).toEqual(['Lidocaine', 'delirium']);
  });

  it("ids are checked against the challenge's namespaces at the denotation's path; nothing stored", () => {
    const refused = read(
      {
        text,
        denotations: [at(0, 9, 'Chemical', 'T1')],
        attributes: [{ id: 'A1', subj: 'T1', pred: 'pubann:denotes', obj: 'CHEBI:6456' }],
      },
      text,
      undefined,
      { Chemical: ['MESH'] },
    );
    expect(refused.errors).toEqual([
      {
        path: 'denotations[0].ids[0]',
        message:
          'namespace CHEBI ("CHEBI:6456") is not accepted for "Chemical" mentions in this challenge (accepted: MESH); send ids of those namespaces, or leave this one out',
      },
    ]);
    expect(refused.mentions).toEqual([]);
    const composite = read(
      {
        text,
        denotations: [at(18, 26, 'Disease', 'T1')],
        attributes: [{ id: 'A1', subj: 'T1', pred: 'pubann:denotes', obj: 'MESH:D003693|D001943' }],
      },
      text,
    );
    expect(composite.errors[0]).toEqual({
      path: 'denotations[0].ids[0]',
      message: '"MESH:D003693|D001943" joins 2 ids in one string; send each as its own item of ids: ["MESH:D003693", "MESH:D001943"]',
    });
  });
});
