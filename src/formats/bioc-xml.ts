// BioC XML: the collection model of bioc-model.ts written with fast-xml-parser's builder
// (valid against the standard BioC DTD) and read back with the saxes-based tree.
//
// The builder is told not to escape: we escape ourselves, because a CR in text must be
// written as &#13; (XML parsers turn a literal CR LF into LF, which would move offsets),
// and TAB/LF in attribute values as references (attribute normalisation would eat them).

import { lazyPackage } from '../shared/lazy-package.ts';
import {
  articlesToBioc,
  biocToArticles,
  type BiocAnnotation,
  type BiocCollection,
  type BiocDocument,
  type BiocOptions,
  type BiocPassage,
  type BiocRelation,
  type BiocSentence,
  type AnyBiocCodec,
  type Infons,
} from './bioc-model.ts';
import { FormatError, type ExportArticle } from './common.ts';
import { childElements, firstChild, textContent, parseXmlTree, type XmlElement } from './xml-tree.ts';

const fastXmlParser = lazyPackage<typeof import('fast-xml-parser')>('fast-xml-parser');

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '\r': '&#13;' };
const ATTRIBUTE_ESCAPES: Record<string, string> = { ...TEXT_ESCAPES, '"': '&quot;', '\t': '&#9;', '\n': '&#10;' };

const escapeText = (s: string) => s.replace(/[&<>\r]/g, (c) => TEXT_ESCAPES[c]);
const escapeAttribute = (s: string) => s.replace(/[&<>\r"\t\n]/g, (c) => ATTRIBUTE_ESCAPES[c]);

type Node = Record<string, unknown>;

const text = (value: string | number): Node => ({ '#text': escapeText(String(value)) });
const infonNodes = (infons: Infons): Node[] =>
  Object.entries(infons).map(([key, value]) => ({ '@_key': escapeAttribute(key), '#text': escapeText(value) }));

function annotationNode(a: BiocAnnotation): Node {
  return {
    '@_id': escapeAttribute(a.id),
    infon: infonNodes(a.infons),
    location: a.locations.map((l) => ({ '@_offset': String(l.offset), '@_length': String(l.length) })),
    text: text(a.text),
  };
}

function relationNode(r: BiocRelation): Node {
  return {
    '@_id': escapeAttribute(r.id),
    infon: infonNodes(r.infons),
    node: r.nodes.map((n) => ({ '@_refid': escapeAttribute(n.refid), '@_role': escapeAttribute(n.role) })),
  };
}

function passageNode(p: BiocPassage): Node {
  return {
    infon: infonNodes(p.infons),
    offset: text(p.offset),
    text: text(p.text),
    annotation: p.annotations.map(annotationNode),
    relation: p.relations.map(relationNode),
  };
}

function documentNode(d: BiocDocument): Node {
  return { id: text(d.id), infon: infonNodes(d.infons), passage: d.passages.map(passageNode), relation: d.relations.map(relationNode) };
}

export function writeBiocXml(collection: BiocCollection): string {
  const builder = new (fastXmlParser().XMLBuilder)({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    processEntities: false,
    format: true,
    indentBy: '  ',
    suppressEmptyNode: false,
  });
  const body = builder.build({
    collection: {
      source: text(collection.source),
      date: text(collection.date),
      key: text(collection.key),
      infon: infonNodes(collection.infons),
      document: collection.documents.map(documentNode),
    },
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!DOCTYPE collection SYSTEM "BioC.dtd">\n${body}`;
}

/** The articles with their answers; `codecs` say how each task's results are written. */
export function exportBiocXml(articles: readonly ExportArticle[], codecs: readonly AnyBiocCodec[], options: BiocOptions = {}): string {
  return writeBiocXml(articlesToBioc(articles, codecs, options));
}

// Reading: element text is taken whole, so white space inside <text> is kept exactly.

function infonsOf(element: XmlElement): Infons {
  const infons: Infons = {};
  for (const infon of childElements(element, 'infon')) infons[infon.attributes.key ?? ''] = textContent(infon);
  return infons;
}

function leafText(element: XmlElement, name: string, where: string): string {
  const child = firstChild(element, name);
  if (!child) throw new FormatError('bioc', `${where} has no <${name}>`);
  return textContent(child);
}

function integer(raw: string | undefined, where: string): number {
  const value = Number(raw?.trim());
  if (raw === undefined || !Number.isInteger(value) || value < 0) throw new FormatError('bioc', `${where}: "${raw}" is not an offset`);
  return value;
}

function readRelation(r: XmlElement): BiocRelation {
  return {
    id: r.attributes.id ?? '',
    infons: infonsOf(r),
    nodes: childElements(r, 'node').map((n) => ({ refid: n.attributes.refid ?? '', role: n.attributes.role ?? '' })),
  };
}

function readAnnotations(parent: XmlElement, where: string): BiocAnnotation[] {
  return childElements(parent, 'annotation').map((a): BiocAnnotation => ({
    id: a.attributes.id ?? '',
    infons: infonsOf(a),
    locations: childElements(a, 'location').map((l) => ({
      offset: integer(l.attributes.offset, `${where}, annotation ${a.attributes.id}`),
      length: integer(l.attributes.length, `${where}, annotation ${a.attributes.id}`),
    })),
    text: firstChild(a, 'text') ? textContent(firstChild(a, 'text')!) : '',
  }));
}

function readSentence(s: XmlElement, where: string): BiocSentence {
  const textElement = firstChild(s, 'text');
  return {
    offset: integer(leafText(s, 'offset', where), `${where} offset`),
    infons: infonsOf(s),
    text: textElement ? textContent(textElement) : '',
    annotations: readAnnotations(s, where),
    relations: childElements(s, 'relation').map(readRelation),
  };
}

function readPassage(p: XmlElement, where: string): BiocPassage {
  const textElement = firstChild(p, 'text');
  const offset = integer(leafText(p, 'offset', where), `${where} offset`);
  const sentences = childElements(p, 'sentence').map((s, i) => readSentence(s, `${where}, passage at ${offset}, sentence ${i + 1}`));
  return {
    offset,
    infons: infonsOf(p),
    text: textElement ? textContent(textElement) : '',
    annotations: readAnnotations(p, where),
    relations: childElements(p, 'relation').map(readRelation),
    sentences,
  };
}

function readDocument(d: XmlElement): BiocDocument {
  const id = leafText(d, 'id', 'a document');
  const where = `document ${id}`;
  return {
    id,
    infons: infonsOf(d),
    passages: childElements(d, 'passage').map((p) => readPassage(p, where)),
    relations: childElements(d, 'relation').map(readRelation),
    annotations: readAnnotations(d, where),
  };
}

/** A collection, or a single `<document>` (read as a collection of one). */
export function readBiocXml(xml: string): BiocCollection {
  const root = parseXmlTree(xml, 'bioc');
  if (root.name === 'document') return { source: '', date: '', key: '', infons: {}, documents: [readDocument(root)], bare: true };
  if (root.name !== 'collection')
    throw new FormatError('bioc', `the root element is <${root.name}>; a BioC file holds a <collection> (or one <document>)`);
  const documents = childElements(root, 'document').map(readDocument);
  const optional = (name: string) => (firstChild(root, name) ? textContent(firstChild(root, name)!) : '');
  return { source: optional('source'), date: optional('date'), key: optional('key'), infons: infonsOf(root), documents };
}

export function importBiocXml(xml: string, codecs: readonly AnyBiocCodec[]): ExportArticle[] {
  return biocToArticles(readBiocXml(xml), codecs);
}
