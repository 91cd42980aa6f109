// TX answers as PubTator: one Species line per taxon, in rank order, the taxid in the id
// column, over the whole text (PubTator has no line without offsets). On the PubTator
// API's document: its species become a TX answer, the export is read back as TX gold
// from the corpus and gives the same taxa; the t and a lines are the document's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { familyOf } from '../../../src/families/registry.ts';
import { readCorpusFile } from '../../../src/formats/corpus-file.ts';
import { readPubTator } from '../../../src/formats/pubtator.ts';

const API = readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'bioc', 'pubtator-api-34546791.json'), 'utf8');

describe('TX PubTator export', () => {
  it('writes each taxon as a Species line with its taxid, which TX corpus gold reads back', () => {
    const [doc] = readCorpusFile(API, 'api.json');
    const tx = familyOf('TX');
    const gold = tx.scoring.corpus!.gold([{ ...doc, id: '34546791' }]).body as string;
    const taxa = gold
      .trim()
      .split('\n')
      .map((line, i) => ({ taxid: Number(line.split('\t')[1]), rank: i + 1 }));
    expect(taxa.length).toBeGreaterThan(0);
    // Ranks given out of order: the lines follow the ranks.
    const answer = [...taxa].reverse();
    const { files } = tx.exports.pubtator!([{ id: '34546791', text: doc.text, sections: doc.sections, result: answer }], {
      run: 'T1_S1',
      sourcedb: 'x',
    });
    expect(files.map((f) => f.name)).toEqual(['T1_S1.TX.pubtator']);
    const lines = files[0].content.trimEnd().split('\n');
    const raw = JSON.parse(API);
    expect(lines[0]).toBe(`34546791|t|${raw.passages[0].text}`);
    expect(lines[1]).toBe(`34546791|a|${raw.passages[1].text}`);
    expect(lines.slice(2).map((l) => l.split('\t').filter((_, i) => i !== 3))).toEqual(
      taxa.map((t) => ['34546791', '0', String([...doc.text].length), 'Species', String(t.taxid)]),
    );
    const [back] = readPubTator(files[0].content);
    expect(tx.scoring.corpus!.gold([back]).body).toBe(gold);
  });
});
