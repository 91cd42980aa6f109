// `metaserver import` stores nothing it cannot read as what its name says: a file named in
// no way it reads, gzip or binary bytes under a text name, a .txt of BioC XML, a .xml.gz
// that is not PubMed, and text that is not UTF-8 are refused naming the file and what it
// holds (before, each became one plain-text article: of U+FFFD, of XML source). XML is
// read in the encoding it declares. Real files: the BioC, PubTator and JATS fixtures, and
// PLOS ONE's pone.0008915 transcoded by iconv (test/support/transcoded-article.ts).
// Refused imports send nothing, so no meta-server runs here.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readImportFiles } from '../../src/cli/import-files.ts';
import { runImportCommand } from '../../src/cli/import.ts';
import { jatsToText } from '../../src/formats/jats.ts';
import { captured } from '../support/captured-io.ts';
import { firstHighByte, toWindows1252, utf8Article, windows1252Article } from '../support/transcoded-article.ts';

const fixtures = join(import.meta.dirname, '..', 'fixtures');
const bioc = readFileSync(join(fixtures, 'bioc', 'cdr-test-3.xml'));
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'metaserver-refusals-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The import of these files, which must refuse (exit 1) and send nothing (no meta-server answers here). */
async function refusedImport(...names: string[]): Promise<string> {
  const io = captured({ METASERVER_URL: 'http://127.0.0.1:9' });
  expect(await runImportCommand(['--challenge', 'c', ...names.map((n) => join(dir, n))], io)).toBe(1);
  expect(io.err).toMatch(/nothing was sent/);
  return io.err;
}

describe('files import does not read', () => {
  it('refuses a file named in no way import reads, naming it, the kinds it reads and what it holds', async () => {
    // A BioC export saved as .bioc-xml: before, one article of XML source.
    writeFileSync(join(dir, 'export.bioc-xml'), bioc);
    const err = await refusedImport('export.bioc-xml');
    expect(err).toContain(
      `${join(dir, 'export.bioc-xml')}, document -: metaserver import reads only files named .txt, .pubtator, .nxml, .xml`,
    );
    expect(err).toMatch(/holds XML whose root element is <collection> \(BioC XML\); if it is BioC XML, give it a name ending in \.xml/);
  });

  it('refuses a .xml.gz that is not PubMed, saying what it is not and what it holds', async () => {
    writeFileSync(join(dir, 'corpus.xml.gz'), gzipSync(bioc));
    writeFileSync(join(dir, 'plain.xml.gz'), bioc);
    const err = await refusedImport('corpus.xml.gz', 'plain.xml.gz');
    expect(err).toMatch(
      /corpus\.xml\.gz, document -: not PubMed \/ MEDLINE XML .*: it holds gzip-compressed XML whose root element is <collection> \(BioC XML\); to import it as BioC XML, decompress it/,
    );
    expect(err).toMatch(
      /plain\.xml\.gz, document -: a \.xml\.gz is read as gzip-compressed PubMed XML, and this file is not gzip-compressed/,
    );
    expect(err).not.toMatch(/citation\(s\) were read before it/);
  });

  it('refuses gzip and binary bytes under a text name, a .txt holding BioC XML, and XML of no format it reads', async () => {
    writeFileSync(join(dir, 'packed.txt'), gzipSync(readFileSync(join(fixtures, 'pubtator', 'cdr-sample-4.txt'))));
    writeFileSync(join(dir, 'collection.txt'), bioc);
    // MeSH descriptors (the concept-id fixtures): real XML, no article (before, refused as "not a JATS article" alone).
    copyFileSync(join(fixtures, 'concept-ids', 'desc-excerpt.xml'), join(dir, 'mesh.xml'));
    const err = await refusedImport('packed.txt', 'collection.txt', 'mesh.xml');
    expect(err).toMatch(
      /mesh\.xml, document -: its root element is <DescriptorRecordSet>; import reads XML as BioC \(<collection>, <document>\), JATS/,
    );
    expect(err).toMatch(/packed\.txt, document -: .*packed\.txt holds gzip-compressed data, not text; decompress it first/);
    expect(err).toMatch(
      /collection\.txt, document -: the \.txt holds BioC XML \(root element <collection>\), not plain text; name it \.xml/,
    );
  });

  it('still reads a .txt of plain text as one article, and a PubTator .txt as its documents', async () => {
    const text = jatsToText(utf8Article()).text;
    writeFileSync(join(dir, 'article.txt'), text);
    copyFileSync(join(fixtures, 'pubtator', 'cdr-sample-4.txt'), join(dir, 'cdr.txt'));
    const read = await readImportFiles([join(dir, 'article.txt'), join(dir, 'cdr.txt')]);
    expect(read.failures).toEqual([]);
    expect(read.items[0]).toMatchObject({ id: 'article', idSource: 'file-name', text });
    expect(read.items.slice(1).map((i) => i.idSource)).toEqual(['document', 'document', 'document', 'document']);
  });
});

describe('encodings', () => {
  it('refuses a windows-1252 .txt naming the file, the first bad byte and the likely encoding', async () => {
    const bytes = toWindows1252(jatsToText(utf8Article()).text.replace(/\u200a/g, ' '));
    writeFileSync(join(dir, 'latin.txt'), bytes);
    const err = await refusedImport('latin.txt');
    expect(err).toMatch(new RegExp(`latin\\.txt is not UTF-8 .*at offset ${firstHighByte(bytes)} .*looks like windows-1252`));
  });

  it('reads a JATS article declared windows-1252 or ISO-8859-1 to the text of its UTF-8 original; refuses it undeclared', async () => {
    writeFileSync(join(dir, 'cp1252.nxml'), windows1252Article('windows-1252'));
    writeFileSync(join(dir, 'latin1.nxml'), windows1252Article('ISO-8859-1'));
    const read = await readImportFiles([join(dir, 'cp1252.nxml'), join(dir, 'latin1.nxml')]);
    expect(read.failures).toEqual([]);
    const original = jatsToText(utf8Article()).text;
    for (const item of read.items) expect(jatsToText(item.xml!).text).toBe(original);
    const undeclared = windows1252Article(undefined);
    writeFileSync(join(dir, 'undeclared.nxml'), undeclared);
    const err = await refusedImport('undeclared.nxml');
    expect(err).toMatch(new RegExp(`undeclared\\.nxml is not UTF-8 \\(it declares no encoding.*at offset ${firstHighByte(undeclared)} `));
  });
});
