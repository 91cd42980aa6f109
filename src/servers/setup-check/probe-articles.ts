// The articles `metaserver check-server` sends: the setup article and the kinds that real
// XML-RPC stacks get wrong — characters outside the BMP, accents, CR LF line ends, XML
// markup and control characters, a long article, a single character. Each goes through
// the same edge as an article loaded into a challenge (textAsSent), so the server sees
// exactly what dispatch would send it.
import { textAsSent } from '../../articles/input.ts';
import { CodePointText } from '../../shared/code-points.ts';
import { CHECK_ARTICLE, CHECK_GIVEN } from './call-server.ts';

export interface CheckArticle {
  id: string;
  /** What it tests, for the report. */
  name: string;
  /** The text as sent. */
  text: string;
  /** COREF given proteins (sent only to COREF servers). */
  given: string;
}

/** Given proteins: the first occurrence of each name, in code points of the text as sent. */
function givenFor(text: string, names: string[]): string {
  const points = new CodePointText(text);
  const lines: string[] = [];
  for (const name of names) {
    const at = text.indexOf(name);
    if (at < 0) continue;
    const start = points.codePointIndex(at);
    lines.push(`T${lines.length + 1}\tProtein ${start} ${start + [...name].length}\t${name}`);
  }
  return lines.join('\n');
}

function article(id: string, name: string, raw: string): CheckArticle {
  const text = textAsSent(raw);
  return { id, name, text, given: givenFor(text, ['BRCA1', 'p53', '𝛼-synuclein']) };
}

/** About 200 KB: a character outside the BMP first, so every offset after it tells code points from UTF-16 units. */
function longArticle(): string {
  const paragraphs = ['𝛼-synuclein in a long article', ''];
  for (let i = 1, length = 0; length < 200_000; i++) {
    const paragraph = `Paragraph ${i}. BRCA1 interacts with p53 in yeast (P38398); the complex is stable at ${i} degrees.`;
    paragraphs.push(paragraph);
    length += paragraph.length + 1;
  }
  return paragraphs.join('\n');
}

export function checkArticles(): CheckArticle[] {
  return [
    { id: 'setup-check', name: 'setup article', text: CHECK_ARTICLE, given: CHECK_GIVEN },
    article('check-non-bmp', 'characters outside the BMP', '😀 𝛼-synuclein binds BRCA1; the 𝔊ene p53 and 𝛽-catenin (P37840) too.'),
    article(
      'check-accents',
      'accented letters only',
      "Ménière's disease: naïve Müller cells express BRCA1; la protéine p53 se lie à l'ADN (P04637).",
    ),
    article('check-crlf', 'CR LF line ends', 'Title\r\n\r\nBRCA1 binds p53.\r\nIt interacts with MDM2 (Q00987).\rEnd.\r\n'),
    article(
      'check-xml',
      'XML markup and control characters',
      'a < b && c > d "q" \'s\' ]]> <![CDATA[x]]> &amp; \u0001\u0007\u001F BRCA1 binds p53\u0000.\r\n<p>IL2</p>',
    ),
    article('check-long', 'a 200 KB article', longArticle()),
    article('check-one', 'one character', 'p'),
  ];
}
