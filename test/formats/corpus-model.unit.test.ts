// The corpus model keeps what a real corpus file carried: the collection's header, the
// document's and each passage's infons, the nodes' roles, the ids as written, and every
// location of a discontinuous annotation with its text as written (BC5CDR's individual
// mentions, the bioc Python library's "everything" files).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isDiscontinuous, UNNAMED_ID } from '../../src/formats/bioc-corpus.ts';
import { readCorpusFileEach } from '../../src/formats/corpus-file.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', name), 'utf8');

describe('the corpus model keeps what the file carried', () => {
  it("BC5CDR's BioC: header, passage infons, a discontinuous individual mention's locations and written text", () => {
    const read = readCorpusFileEach(fixture('bioc/cdr-test-3.xml'), 'cdr-test-3.xml');
    expect(read.failures).toEqual([]);
    expect(read.header).toEqual({ source: 'PubTator', date: '0/0/0', key: 'PubTator.key' });
    const doc = read.documents.find((d) => d.id === '24100055')!;
    expect(doc.infons).toEqual({});
    expect(doc.sections.map((s) => s.infons)).toEqual([{ type: 'title' }, { type: 'abstract' }]);
    const a = doc.annotations.find((x) => x.id === '13')!;
    // Before, its text was the covering span's ("end-stage or malignant liver disease"), its fragments lost.
    expect(a.locations).toEqual([
      { start: 914, end: 923 },
      { start: 937, end: 950 },
    ]);
    expect(a.text).toBe('end-stage liver disease');
    expect([a.start, a.end]).toEqual([914, 950]);
    expect(isDiscontinuous(a)).toBe(true);
    // A continuous annotation has no `locations`.
    expect(doc.annotations.filter((x) => x.locations !== undefined).map((x) => x.id)).toEqual(['13']);
  });

  for (const name of ['bioc-python-everything.xml', 'bioc-python-everything.json']) {
    it(`${name}: collection header, document and passage infons, node roles`, () => {
      const read = readCorpusFileEach(fixture(`bioc/${name}`), name);
      expect(read.failures).toEqual([]);
      expect(read.header).toEqual({
        source: 'source',
        date: 'date',
        key: 'key',
        infons: { 'collection-infon-key': 'collection-infon-value' },
      });
      const [one, two] = read.documents;
      expect(one.infons).toEqual({ 'document-infon-key': 'document-infon-value' });
      expect(one.sections[0].infons).toEqual({ 'passage-infon-key': 'passage-infon-value' });
      // Document 2's passage has no infon: none is made up.
      expect(two.sections[0]).not.toHaveProperty('infons');
      expect(one.relations.map((r) => [r.id, r.args, r.nodes])).toEqual([
        [
          'R1',
          ['1', '2'],
          [
            { refid: '1', role: 'role1' },
            { refid: '2', role: 'role2' },
          ],
        ],
        [
          'R2',
          ['1', '2'],
          [
            { refid: '1', role: 'role1' },
            { refid: '2', role: 'role2' },
          ],
        ],
      ]);
      expect(two.relations[0].nodes).toEqual([{ refid: '3', role: 'role1' }]);
    });
  }

  it('a bare document has no header, PubTator neither; PubTator documents have no infons', () => {
    const xml = fixture('bioc/cdr-test-3.xml');
    const bare = xml.slice(xml.indexOf('<document>'), xml.indexOf('</document>') + '</document>'.length);
    expect(readCorpusFileEach(bare, 'one.xml').header).toBeUndefined();
    expect(readCorpusFileEach(fixture('bioc/pubtator-api-34546791.json'), 'one.json').header).toBeUndefined();
    const pubtator = readCorpusFileEach(fixture('pubtator/cdr-test-3.txt'), 'cdr-test-3.txt', 'pubtator');
    expect(pubtator.header).toBeUndefined();
    expect(pubtator.documents[0]).not.toHaveProperty('infons');
  });

  it('ids are kept as written; one written without an id is named #<n> (its place in the document)', () => {
    // cdr-test-3.xml edited: annotation 2 of document 23949582 loses its id.
    const xml = fixture('bioc/cdr-test-3.xml').replace("<annotation id='2'>", '<annotation>');
    const doc = readCorpusFileEach(xml, 'cdr-test-3.xml').documents[0];
    expect(doc.annotations.map((a) => a.id).slice(0, 4)).toEqual(['0', '1', '#3', '3']);
    expect(UNNAMED_ID.test('#3')).toBe(true);
    expect(UNNAMED_ID.test('3')).toBe(false);
  });
});
