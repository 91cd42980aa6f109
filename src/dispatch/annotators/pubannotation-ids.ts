// Concept ids in PubAnnotation answers (pubannotation-answer.ts says where annotators put
// them): a denotation's `obj` that is an id, and attributes that carry one.

import { canonicalNamespace, NAMESPACES } from '../../tasks/concept-ids.ts';

/**
 * URIs of concept ids as dictionaries write them, each to `NS:accession`:
 * - OBO PURLs `http://purl.obolibrary.org/obo/CHEBI_15377` (any OBO prefix: GO_0006915,
 *   NCBITaxon_9606, MONDO_0005015);
 * - MeSH RDF `http://id.nlm.nih.gov/mesh/D003693` (with or without a year);
 * - identifiers.org `https://identifiers.org/mesh/D003693` and `…/MESH:D003693`;
 * - the entry pages of NCBI Gene, NCBI Taxonomy, OMIM and dbSNP.
 */
const CONCEPT_URIS: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => string]> = [
  [/^https?:\/\/purl\.obolibrary\.org\/obo\/([A-Za-z][A-Za-z0-9]*)_([A-Za-z0-9]+)$/, (m) => `${canonicalNamespace(m[1])}:${m[2]}`],
  [/^https?:\/\/id\.nlm\.nih\.gov\/mesh\/(?:\d{4}\/)?([CD]\d{6,9})$/, (m) => `MESH:${m[1]}`],
  [/^https?:\/\/identifiers\.org\/([A-Za-z][\w.]*)[:/]([^/\s]+)$/, (m) => `${canonicalNamespace(m[1])}:${m[2]}`],
  [/^https?:\/\/www\.ncbi\.nlm\.nih\.gov\/gene\/(\d+)\/?$/, (m) => `NCBIGene:${m[1]}`],
  [/^https?:\/\/www\.ncbi\.nlm\.nih\.gov\/(?:Taxonomy\/Browser\/wwwtax\.cgi\?id=|taxonomy\/)(\d+)$/, (m) => `NCBITaxon:${m[1]}`],
  [/^https?:\/\/(?:www\.)?omim\.org\/entry\/(\d{6})$/, (m) => `OMIM:${m[1]}`],
  [/^https?:\/\/www\.ncbi\.nlm\.nih\.gov\/snp\/(rs\d+)$/, (m) => `dbSNP:${m[1]}`],
];

/**
 * A denotation's `obj` as an id, or undefined when it is a type: a URI of CONCEPT_URIS, or
 * `NS:accession` whose namespace is one we know (`Gene`, `Protein` and `GO:0006915` with
 * an unknown `GO` stay as written: a type, and a type must not turn into an id by accident).
 */
export function idOfObject(obj: string): string | undefined {
  const written = obj.trim();
  for (const [pattern, id] of CONCEPT_URIS) {
    const m = pattern.exec(written);
    if (m) return id(m);
  }
  const colon = written.indexOf(':');
  if (colon <= 0 || /^https?:/i.test(written)) return undefined;
  const namespace = canonicalNamespace(written.slice(0, colon));
  return NAMESPACES[namespace] ? `${namespace}:${written.slice(colon + 1).trim()}` : undefined;
}

/** Attribute preds that carry a concept id (folded, the prefix `xx:` taken off): PubAnnotation's `pubann:denotes`, and the usual names. */
const ID_PREDS = new Set(['denotes', 'identifier', 'id', 'dbid', 'conceptid', 'normalization', 'normalizedid']);

const fold = (s: string): string => s.toLowerCase().replace(/[\s_-]+/g, '');

/**
 * The id an attribute carries, as the mention's `ids` item to check; undefined when the
 * attribute is not an id. A pred naming a namespace (`MESH`) takes a bare accession as of
 * it; a value that is a URI is read as an `obj` is. A value that is no string is passed
 * on as sent, for validation to refuse at its path.
 */
export function idAttribute(pred: string, value: unknown): unknown {
  const local = pred.includes(':') ? pred.slice(pred.lastIndexOf(':') + 1) : pred;
  const namespace = canonicalNamespace(pred);
  const named = NAMESPACES[namespace] !== undefined;
  if (!ID_PREDS.has(fold(local)) && !named) return undefined;
  if (typeof value !== 'string') return value;
  if (named && !value.includes(':')) return `${namespace}:${value.trim()}`;
  return idOfObject(value) ?? value;
}
