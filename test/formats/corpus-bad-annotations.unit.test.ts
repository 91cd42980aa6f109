// One annotation that does not fit its text no longer costs its document's text: read with
// badAnnotations "skip" (article intake skipping bad documents, `metaserver import
// --skip-bad`), the document is kept and only the annotation left out, named with its
// reason. By default the document is still refused naming the annotation, and gold uploads
// stay strict. The real case: five documents of BC5CDR's evaluation kit sample
// (CDR_sample.gold.BioC.xml) whose abstract passages do not fit their annotations.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusArticles } from '../../src/articles/input.ts';
import { batchItems } from '../../src/articles/batch.ts';
import { readCorpusFileEach } from '../../src/formats/corpus-file.ts';
import { corpusUpload } from '../../src/leaderboard/gold-corpus.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', name), 'utf8');
const SAMPLE = fixture('bc5cdr-eval/CDR_sample.gold.BioC.xml');
const UNFIT = ['2224762', '4027862', '8649546', '17466854', '19803309'];
const MAX_BYTES = 1_000_000;

describe('an annotation that does not fit its text', () => {
  it('refuses its document by default, naming the annotation', () => {
    const read = readCorpusFileEach(SAMPLE, 'CDR_sample.gold.BioC.xml');
    expect(read.documents).toHaveLength(45);
    expect(read.failures.map((f) => f.document)).toEqual(UNFIT);
    expect(read.failures[0].reason).toMatch(/document 2224762: annotation 1 says its text is "4'-0-tetrahydropyranyladriamycin"/);
    expect(read.annotationsLeftOut).toEqual([]);
  });

  it('with badAnnotations "skip": every document kept with its text, only the annotations that do not fit left out, each named', () => {
    const read = readCorpusFileEach(SAMPLE, 'CDR_sample.gold.BioC.xml', 'bioc-xml', { badAnnotations: 'skip' });
    expect(read.failures).toEqual([]);
    expect(read.documents).toHaveLength(50);
    expect([...new Set(read.annotationsLeftOut.map((a) => a.document))]).toEqual(UNFIT);
    expect(read.annotationsLeftOut[0]).toEqual({
      file: 'CDR_sample.gold.BioC.xml',
      document: '2224762',
      annotation: '1',
      reason: expect.stringMatching(
        /annotation 1 says its text is .* the offsets do not fit the text; left out, the document's text was loaded/,
      ),
    });
    const doc = read.documents.find((d) => d.id === '2224762')!;
    expect(doc.text.startsWith("A phase I study of 4'-0-tetrahydropyranyladriamycin.")).toBe(true);
    // The title's annotation fits: it is kept; every one left out is missing, none other.
    const leftOut = new Set(read.annotationsLeftOut.filter((a) => a.document === '2224762').map((a) => a.annotation));
    expect(doc.annotations.map((a) => a.id)).toContain('0');
    for (const a of doc.annotations) expect(leftOut.has(a.id)).toBe(false);
  });

  it('PubTator alike: the line is named (tmVar file, one annotation edited not to fit)', () => {
    const bad = fixture('pubtator/tmvar-normalization-3.txt').replace('22188495\t1031\t1038\t3190C>T', '22188495\t1031\t1038\t3190C>X');
    const read = readCorpusFileEach(bad, 'tmvar.txt', 'pubtator', { badAnnotations: 'skip' });
    expect(read.failures).toEqual([]);
    expect(read.documents.map((d) => d.id)).toContain('22188495');
    expect(read.annotationsLeftOut).toEqual([
      {
        file: 'tmvar.txt',
        document: '22188495',
        annotation: expect.stringMatching(/^L\d+$/),
        reason: expect.stringMatching(/^tmvar\.txt line \d+: document 22188495: annotation L\d+ says its text is "3190C>X"/),
      },
    ]);
  });

  it('article intake skipping bad documents loads the five documents as articles and reports their annotations left out', () => {
    const refusing = corpusArticles({ bioc: SAMPLE, file: 'sample.xml' }, MAX_BYTES);
    expect(refusing.articles).toHaveLength(45);
    expect(refusing.failures.map((f) => f.document)).toEqual(UNFIT);
    const skipping = batchItems({ bioc: SAMPLE, file: 'sample.xml', badDocuments: 'skip' }, MAX_BYTES);
    expect(skipping.refused).toEqual([]);
    expect(skipping.items).toHaveLength(50);
    expect([...new Set(skipping.annotationsLeftOut.map((a) => a.document))]).toEqual(UNFIT);
    expect(skipping.annotationsLeftOut.every((a) => a.file === 'sample.xml' && a.annotation !== '' && a.reason !== '')).toBe(true);
    // Refusing (the default), nothing is left out in silence: the documents are the failures.
    expect(batchItems({ bioc: SAMPLE, file: 'sample.xml' }, MAX_BYTES).annotationsLeftOut).toEqual([]);
  });

  it('a gold standard upload stays strict: the sample as MENTION gold is refused, naming the documents', () => {
    expect(() => corpusUpload('MENTION', SAMPLE, 'bioc', 'gold standard')).toThrow(
      /5 document\(s\) of the gold standard cannot be read \(document 2224762: .*annotation 1 says its text is/,
    );
  });
});
