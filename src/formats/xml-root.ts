// The root element of an XML text without parsing it: what tells the XML formats apart
// (BioC, JATS, PubMed) before one of them reads the whole file.

const PROLOG = /^\uFEFF?\s*(?:(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)\s*)*<([A-Za-z_][\w.:-]*)/;

/** The root element's name: after the XML declaration, comments, processing instructions and a DOCTYPE; undefined when the text does not start so. */
export function xmlRootElement(start: string): string | undefined {
  return PROLOG.exec(start)?.[1];
}

/** The formats whose root elements these are, for messages that say what a file holds. */
export function xmlFormatOf(root: string | undefined): string | undefined {
  if (root === 'collection' || root === 'document') return 'BioC XML';
  if (root === 'article' || root === 'pmc-articleset') return 'JATS';
  if (root === 'PubmedArticleSet' || root === 'MedlineCitationSet') return 'PubMed XML';
  return undefined;
}
