import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/formats/common.ts';
import { jatsToText } from '../../src/formats/jats.ts';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/jats/${name}`, import.meta.url), 'utf8');

describe('jatsToText', () => {
  it('lays out a structured PMC article in the BC II.5 plain-text form', () => {
    const { text, title } = jatsToText(fixture('structured.nxml'));
    expect(title).toBe('Binding of p53 to MDM2 & its α-helix');
    expect(text).toBe(
      [
        'Binding of p53 to MDM2 & its α-helix',
        '',
        'Background',
        'The p53 protein (1) binds MDM2.',
        '',
        'Results',
        'Binding needs Ca2+ and \u{1D6FC}-actinin (Kd < 5 nM).',
        '',
        '1 Introduction',
        'MDM2 is an E3 ligase [2].',
        '',
        'It acts when x>1 holds. y The formula is kept.',
        '',
        '2 Methods',
        '2.1 Cell culture',
        'Cells were grown.',
        '',
        'Figure 1 Binding curve. Data are means.',
        '',
        'Then harvested.',
        '',
        'Assays',
        'First assay.',
        '',
        'Second assay.',
        '',
        'Table 1 Primers used.',
        '',
        'A footnote.',
        '',
        'Acknowledgements',
        'We thank the reviewers.',
      ].join('\n'),
    );
  });

  it('handles an article set wrapper, sectionless bodies, CDATA, floats and literal non-BMP text', () => {
    const { text, title } = jatsToText(fixture('plain.nxml'));
    expect(title).toBe('A short note on 😀 emoji');
    expect(text).toBe(
      [
        'A short note on 😀 emoji',
        '',
        'First abstract paragraph.',
        '',
        'Second abstract paragraph with\u00a0a no-break space.',
        '',
        'A body without sections & no headers.',
        '',
        'Raw <text> in CDATA.',
        '',
        'Fig. 1. The only figure.',
        '',
        'Funding',
        'Grant 42.',
      ].join('\n'),
    );
  });

  it('keeps table footnotes and supplementary-material captions where the real PMC articles put them', () => {
    // The structures of real PMC files: footnotes under a table in the body and in the
    // floats group (labelled, unlabelled, an empty label, a loose paragraph, a group),
    // supplementary material in a body section and in a back section, each with a media
    // caption; footnotes elsewhere and references stay out.
    const { text } = jatsToText(fixture('footnotes.nxml'));
    expect(text).toBe(
      [
        'Footnotes & supplements',
        '',
        'Results',
        'Seroprevalence was high.',
        '',
        'Table 1 RVF seroprevalence, by district.',
        '',
        'a,b Values with no superscript in common differ (p<0.05).',
        '',
        'C.I. confidence interval.',
        '',
        'Reference level.',
        '',
        'n.d. not detected.',
        '',
        'Then it fell.',
        '',
        'Supporting Information',
        'Table S1 Genes of the \u{1D6FC}-lipases. (DOC)',
        '',
        'Click here for additional data file.',
        '',
        'Table 2 Hazard ratios.',
        '',
        'a Among ever users only.',
        '',
        'Acknowledgements',
        'We thank the farmers.',
        '',
        'Supplementary Material',
        'Data S1 Raw counts.',
        '',
        'Click here for additional data file.',
      ].join('\n'),
    );
  });

  it('refuses input that is not XML', () => {
    expect(() => jatsToText('Just some plain text.')).toThrow(FormatError);
    expect(() => jatsToText('Just some plain text.')).toThrow(/not XML/);
    expect(() => jatsToText('<article><p>unclosed</article>')).toThrow(/malformed XML/);
  });

  it('refuses DOCTYPEs that declare entities, internal or external', () => {
    const internal = '<!DOCTYPE article [<!ENTITY boom "lol">]><article><body><p>&boom;</p></body></article>';
    const external = '<!DOCTYPE article [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><article><body><p>&xxe;</p></body></article>';
    expect(() => jatsToText(internal)).toThrow(/declares entities/);
    expect(() => jatsToText(external)).toThrow(/declares entities/);
  });

  it('refuses undefined entities instead of guessing', () => {
    expect(() => jatsToText('<article><body><p>a&nbsp;b</p></body></article>')).toThrow(FormatError);
  });

  it('refuses XML that is not a JATS article', () => {
    expect(() => jatsToText('<collection><document/></collection>')).toThrow(/not a JATS article.*<collection>/);
  });
});
