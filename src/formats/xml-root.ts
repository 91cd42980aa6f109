// The root element of an XML text without parsing it: what tells the XML formats apart
// (BioC, JATS, PubMed) before one of them reads the whole file.

const PROLOG = /^\uFEFF?\s*(?:(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>)\s*)*<([A-Za-z_][\w.:-]*)/;

/** The root element's name: after the XML declaration, comments, processing instructions and a DOCTYPE; undefined when the text does not start so. */
export function xmlRootElement(start: string): string | undefined {
  return PROLOG.exec(start)?.[1];
}

