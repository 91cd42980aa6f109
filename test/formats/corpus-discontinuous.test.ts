// A discontinuous annotation (two or more locations) is never widened in silence: MENTION,
// REL and NORM leave out one that is not a BC5CDR individual mention, each naming it; a
// BioC answer's item with several locations is refused. BC5CDR's individual mentions keep
// their rule, so BC5CDR's BioC and PubTator gold still score alike (its evaluation kit's
// sample: 424 Disease mentions, the DNER run TP 303 FP 105 FN 121).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mentionCorpus } from '../../src/families/mention/corpus.ts';
import { readNormFile } from '../../src/families/mention/norm-input.ts';
import { relCorpus } from '../../src/families/rel/corpus.ts';
import { exportBiocXml, importBiocXml } from '../../src/families/formats.ts';
import { readCorpusFile } from '../../src/formats/corpus-file.ts';
import { FormatError } from '../../src/formats/common.ts';
import { score } from '../support/score-cli.ts';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '..', 'fixtures', name), 'utf8');
const CDR3 = fixture('bioc/cdr-test-3.xml');
/**
 * cdr-test-3.xml edited: annotation 13 of document 24100055 ("end-stage liver disease",
 * [914, 923) + [937, 950) of "end-stage or malignant liver disease") loses its infon
 * CompositeRole IndividualMention, so it is a discontinuous annotation of its own.
 */
const CDR3_DISCONTINUOUS = CDR3.replace(
  /(<annotation id='13'>\s*<infon key="type">Disease<\/infon>\s*)<infon key="CompositeRole">IndividualMention<\/infon>\s*/,
  '$1',
);
const NAMED =
  /document 24100055: annotation 13 "end-stage liver disease" \(fragments \[914, 923\), \[937, 950\)\) is discontinuous and was left out/;

type Converted = { body: { documents: Record<string, { ann: string }> }; warnings: string[] };
/** The mentions of a MENTION corpus conversion: `doc start end type`. */
const mentionsOf = (c: Converted, type?: string): Set<string> =>
  new Set(
    Object.entries(c.body.documents).flatMap(([doc, { ann }]) =>
      ann.split('\n').flatMap((line) => {
        const m = /^T\d+\t(\S+) (\d+) (\d+)\t/.exec(line);
        return m && (type === undefined || m[1] === type) ? [`${doc} ${m[2]} ${m[3]} ${m[1]}`] : [];
      }),
    ),
  );

describe('a discontinuous annotation is never widened in silence', () => {
  it('the fixture edit took: annotation 13 is discontinuous and no longer an individual mention', () => {
    expect(CDR3_DISCONTINUOUS).not.toBe(CDR3);
    const a = readCorpusFile(CDR3_DISCONTINUOUS, 'x')[1].annotations.find((x) => x.id === '13')!;
    expect(a.infons.CompositeRole).toBeUndefined();
    expect(a.locations).toHaveLength(2);
  });

  it('MENTION gold leaves it out, naming document, id, text and fragments (before: a mention [914, 950) holding "or malignant")', () => {
    const gold = mentionCorpus.gold(readCorpusFile(CDR3_DISCONTINUOUS, 'cdr-test-3.xml')) as Converted;
    // [914, 950) is the composite's own span ("end-stage or malignant liver disease"): one mention there, not two.
    expect(gold.body.documents['24100055'].ann.match(/\tDisease 914 950\t/g)).toHaveLength(1);
    expect(mentionsOf(gold)).toEqual(mentionsOf(mentionCorpus.gold(readCorpusFile(CDR3, 'cdr-test-3.xml')) as Converted));
    expect(gold.warnings.filter((w) => NAMED.test(w))).toHaveLength(1);
    expect(gold.warnings.join('\n')).toMatch(/write one annotation per fragment/);
  });

  it("MENTION gold of BC5CDR's BioC as written: its individual mentions keep their rule, the gold is its PubTator twin's", () => {
    const bioc = mentionCorpus.gold(readCorpusFile(CDR3, 'cdr-test-3.xml')) as Converted;
    const pubtator = mentionCorpus.gold(readCorpusFile(fixture('pubtator/cdr-test-3.txt'), 'cdr-test-3.txt')) as Converted;
    expect(mentionsOf(bioc)).toEqual(mentionsOf(pubtator));
    expect(bioc.warnings.join('\n')).not.toMatch(/discontinuous/);
    expect(bioc.warnings.join('\n')).toMatch(/individual mention\(s\) of composite mentions/);
  });

  it('REL entities leave it out, naming it (before: an entity [914, 950))', () => {
    const gold = relCorpus.gold(readCorpusFile(CDR3_DISCONTINUOUS, 'cdr-test-3.xml')) as {
      body: { entities: string };
      warnings: string[];
    };
    expect(gold.body.entities).not.toMatch(/^24100055\t13\t/m);
    expect(gold.body.entities).toMatch(/^24100055\t12\t/m);
    expect(gold.warnings.filter((w) => NAMED.test(w))).toHaveLength(1);
  });

  it('NORM leaves it out with a warning; an individual mention is still read with its covering span, its ids counted', () => {
    const edited = readNormFile(CDR3_DISCONTINUOUS, 'cdr-test-3.xml');
    // The composite itself spans [914, 950): it alone is left there.
    expect(edited.annotations.filter((a) => a.doc === '24100055' && a.start === 914).map((a) => a.text)).toEqual([
      'end-stage or malignant liver disease',
    ]);
    expect(edited.warnings).toEqual([expect.stringMatching(/^cdr-test-3\.xml: document 24100055: annotation 13 /)]);
    const asWritten = readNormFile(CDR3, 'cdr-test-3.xml');
    expect(asWritten.warnings).toEqual([]);
    expect(asWritten.annotations.find((a) => a.doc === '24100055' && a.start === 914 && a.individual)).toMatchObject({
      end: 950,
      individual: true,
      bc5cdrIds: 'D017114',
      text: 'end-stage liver disease',
    });
  });

  it('a BioC answer whose item has two locations is refused naming it (before: read as its first location)', () => {
    // A run made of BC5CDR's real mentions, exported, then one annotation given a second location.
    const [doc] = readCorpusFile(fixture('pubtator/cdr-test-3.txt'), 'cdr-test-3.txt');
    const mentions = doc.annotations.map((a) => ({ start: a.start!, end: a.end!, text: a.text, type: a.type }));
    const xml = exportBiocXml([{ id: doc.id, text: doc.text, answers: [{ server: 'run', result: { MENTION: mentions } }] }]);
    expect(importBiocXml(xml)[0].answers[0].result.MENTION).toHaveLength(mentions.length);
    const first = /<location offset="(\d+)" length="(\d+)"><\/location>/.exec(xml)!;
    const two = xml.replace(first[0], `${first[0]}<location offset="${Number(first[1]) + 20}" length="3"></location>`);
    expect(() => importBiocXml(two)).toThrow(FormatError);
    expect(() => importBiocXml(two)).toThrow(/document 23949582: annotation a1\.1 has 2 locations .*write one annotation per fragment/);
  });
});

describe("BC5CDR's evaluation kit sample: BioC and PubTator gold score alike", () => {
  /**
   * CDR_sample.gold.BioC.xml edited: five documents' abstract passages start where the kit's
   * writer put them, past the title by its XML escapes (`&apos;` counted as 6 characters), so
   * their annotations (in PubTator's offsets) do not fit; each abstract is moved to one
   * character after its title, where PubTator puts it. Nothing else changes.
   */
  function fittedBioc(): string {
    return fixture('bc5cdr-eval/CDR_sample.gold.BioC.xml').replace(
      /(<infon key="type">title<\/infon>\s*<offset>0<\/offset>\s*<text>)(.*?)(<\/text>[\s\S]*?<infon key="type">abstract<\/infon>\s*<offset>)(\d+)/g,
      (_all, before: string, title: string, middle: string) => {
        const length = [...title.replace(/&(apos|quot|amp|lt|gt);/g, 'x')].length;
        return `${before}${title}${middle}${length + 1}`;
      },
    );
  }

  it('424 Disease mentions in both (435 annotations less 11 individual mentions); the DNER run scores TP 303 FP 105 FN 121 on either', () => {
    const bioc = mentionCorpus.gold(readCorpusFile(fittedBioc(), 'CDR_sample.gold.BioC.xml')) as Converted;
    const pubtator = mentionCorpus.gold(readCorpusFile(fixture('bc5cdr-eval/CDR_sample.gold.PubTator'), 'gold.PubTator')) as Converted;
    expect(mentionsOf(bioc)).toEqual(mentionsOf(pubtator));
    expect(bioc.warnings.join('\n')).not.toMatch(/discontinuous/);
    const run = mentionsOf(
      mentionCorpus.run!(readCorpusFile(fixture('bc5cdr-eval/CDR_sample.test.DNER.PubTator'), 'DNER.PubTator')) as Converted,
      'Disease',
    );
    for (const gold of [bioc, pubtator]) {
      const disease = mentionsOf(gold, 'Disease');
      expect(disease.size).toBe(424);
      const tp = [...run].filter((m) => disease.has(m)).length;
      expect({ tp, fp: run.size - tp, fn: disease.size - tp }).toEqual({ tp: 303, fp: 105, fn: 121 });
    }
  });

  it('metaserver score MENTION leaves it out too, naming it (before: scored as a mention [914, 950))', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'discontinuous-score-'));
    try {
      const file = join(dir, 'cdr.xml');
      writeFileSync(file, CDR3_DISCONTINUOUS);
      const answer = await score('MENTION', '--gold', file, file);
      expect(answer.code, answer.err).toBe(0);
      expect(answer.err).toMatch(NAMED);
      // 65 mentions in the three documents (BC5CDR's PubTator twin has as many lines), the discontinuous one not among them.
      expect(JSON.parse(answer.out).runs[0].metrics.strict).toMatchObject({ tp: 65, fp: 0, fn: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
