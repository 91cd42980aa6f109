// Concept identifiers: the database ids a mention is normalised to, and that relations
// between concepts name (BC5CDR, NCBI disease, NLM-Chem, BioRED, GNormPlus, tmVar). One
// id is `NAMESPACE:accession` (`MESH:D003693`, `NCBIGene:7157`). Every part of the
// meta-server that reads, checks, stores, compares or links an id goes through here, so
// `MeSH:D003693` read from a PubTator API file and a bare `D003693` read from a BC5CDR
// file of a Chemical are the same id everywhere.
//
// Choices (src/tasks/README.md, "Concept identifiers"):
// - Namespaces are spelled one way when stored (the keys of NAMESPACES); the spellings the
//   corpora and annotators use (`MeSH`, `NCBI Gene`, `EntrezGene`, `taxonomy`…) are read
//   as those, case, spaces, `_` and `-` ignored. A namespace we do not know is kept as
//   written: a challenge may accept it, and pages show it as text.
// - A bare accession (BC5CDR, NCBI disease and BioRED write MeSH ids and gene ids so) takes
//   the namespace its entity type has by default: the challenge's first accepted namespace
//   for the type, else DEFAULT_NAMESPACES.

export interface Namespace {
  /** For people: pages and messages. */
  title: string;
  /** What an accession of the namespace looks like (checked in answers). */
  accession: RegExp;
  /** The accession's form in words, for error messages. */
  form: string;
  /** The page of the entry in its database; absent: shown as text. */
  link?: (accession: string) => string;
}

export const NAMESPACES: Readonly<Record<string, Namespace>> = {
  MESH: {
    title: 'MeSH',
    accession: /^[CD]\d{6}(?:\d{3})?$/,
    form: 'D or C and 6 or 9 digits (D003693, C051890)',
    link: (a) => `https://meshb.nlm.nih.gov/record/ui?ui=${a}`,
  },
  OMIM: {
    title: 'OMIM',
    accession: /^(?:PS)?\d{6}$/,
    form: '6 digits, or PS and 6 digits (176807)',
    link: (a) => `https://omim.org/entry/${a}`,
  },
  NCBIGene: {
    title: 'NCBI Gene',
    accession: /^[1-9]\d{0,9}$/,
    form: 'a positive integer (7157)',
    link: (a) => `https://www.ncbi.nlm.nih.gov/gene/${a}`,
  },
  NCBITaxon: {
    title: 'NCBI Taxonomy',
    accession: /^[1-9]\d{0,9}$/,
    form: 'a positive integer (9606)',
    link: (a) => `https://www.ncbi.nlm.nih.gov/Taxonomy/Browser/wwwtax.cgi?id=${a}`,
  },
  CHEBI: {
    title: 'ChEBI',
    accession: /^[1-9]\d{0,9}$/,
    form: 'a positive integer (15377)',
    link: (a) => `https://www.ebi.ac.uk/chebi/searchId.do?chebiId=CHEBI:${a}`,
  },
  dbSNP: {
    title: 'dbSNP',
    accession: /^rs[1-9]\d{0,11}$/,
    form: 'rs and a positive integer (rs2234671)',
    link: (a) => `https://www.ncbi.nlm.nih.gov/snp/${a}`,
  },
  // tmVar's and BioRED's normalised variants: `c|SUB|G|1138|A`, `p|SUB|V|600|E`.
  HGVS: { title: 'HGVS (tmVar form)', accession: /^[cgpmnr]\|[A-Z]+\|[^\s|]*(?:\|[^\s|]*)*$/, form: 'tmVar form, as c|SUB|G|1138|A' },
  Cellosaurus: {
    title: 'Cellosaurus',
    accession: /^CVCL_[0-9A-Z]{4}$/,
    form: 'CVCL_ and 4 letters or digits (CVCL_0030)',
    link: (a) => `https://www.cellosaurus.org/${a}`,
  },
};

/** The spellings of the namespaces in the field's files, folded (lower case, no space, `_` or `-`). */
const ALIASES: Readonly<Record<string, string>> = {
  mesh: 'MESH',
  omim: 'OMIM',
  mim: 'OMIM',
  ncbigene: 'NCBIGene',
  gene: 'NCBIGene',
  geneid: 'NCBIGene',
  entrez: 'NCBIGene',
  entrezgene: 'NCBIGene',
  ncbitaxon: 'NCBITaxon',
  ncbitaxonomy: 'NCBITaxon',
  taxonomy: 'NCBITaxon',
  tax: 'NCBITaxon',
  taxid: 'NCBITaxon',
  chebi: 'CHEBI',
  dbsnp: 'dbSNP',
  rs: 'dbSNP',
  hgvs: 'HGVS',
  cellosaurus: 'Cellosaurus',
  cvcl: 'Cellosaurus',
};

const fold = (s: string): string => s.toLowerCase().replace(/[\s_-]+/g, '');

/** The stored spelling of a namespace as written; an unknown one is kept as written (trimmed). */
export function canonicalNamespace(written: string): string {
  return ALIASES[fold(written)] ?? written.trim();
}

/**
 * Entity types' namespaces when a corpus writes bare accessions, folded type → namespace:
 * BC5CDR and NCBI disease (Chemical, Disease), BioRED (ChemicalEntity,
 * DiseaseOrPhenotypicFeature, GeneOrGeneProduct, OrganismTaxon, SequenceVariant, CellLine),
 * GNormPlus and NLM-Gene (Gene), tmVar (the mutation types; rs ids are dbSNP), species taggers.
 */
const DEFAULT_NAMESPACES: Readonly<Record<string, string>> = {
  chemical: 'MESH',
  chemicalentity: 'MESH',
  disease: 'MESH',
  diseaseorphenotypicfeature: 'MESH',
  specificdisease: 'MESH',
  diseaseclass: 'MESH',
  compositemention: 'MESH',
  modifier: 'MESH',
  gene: 'NCBIGene',
  geneorgeneproduct: 'NCBIGene',
  geneprotein: 'NCBIGene',
  protein: 'NCBIGene',
  species: 'NCBITaxon',
  organismtaxon: 'NCBITaxon',
  organism: 'NCBITaxon',
  cellline: 'Cellosaurus',
  sequencevariant: 'HGVS',
  mutation: 'HGVS',
  dnamutation: 'HGVS',
  proteinmutation: 'HGVS',
  snp: 'dbSNP',
  variant: 'HGVS',
};

/** The challenge's accepted namespaces by entity type (`*`: any other type); absent or empty: any. */
export type NamespaceRules = Readonly<Record<string, readonly string[]>>;

/** The namespaces a challenge accepts for a type: its own entry, else `*`, else undefined (any). */
export function acceptedNamespaces(rules: NamespaceRules | undefined, type: string | undefined): readonly string[] | undefined {
  if (!rules) return undefined;
  const own = type !== undefined ? rules[type] : undefined;
  const list = own ?? rules['*'];
  return list && list.length > 0 ? list.map(canonicalNamespace) : undefined;
}

/** The namespace of a bare accession of this entity type (rs ids are dbSNP whatever the type). */
export function defaultNamespace(type: string | undefined, accession: string, rules?: NamespaceRules): string | undefined {
  if (/^rs\d+$/.test(accession)) return 'dbSNP';
  const accepted = acceptedNamespaces(rules, type);
  if (accepted) return accepted[0];
  return type === undefined ? undefined : DEFAULT_NAMESPACES[fold(type)];
}

export interface ConceptId {
  namespace: string;
  accession: string;
}

/** `NS:accession` as stored. */
export const formatConceptId = (id: ConceptId): string => `${id.namespace}:${id.accession}`;

/**
 * Reads one id as written: `NS:accession` (NS in any known spelling) or, when the entity
 * type has a default namespace, a bare accession. Undefined when it has neither a namespace
 * nor a type that gives one. Only the form is read here; `checkConceptId` checks it.
 */
export function readConceptId(written: string, type?: string, rules?: NamespaceRules): ConceptId | undefined {
  const raw = written.trim();
  const colon = raw.indexOf(':');
  // "CHEBI:15377" and "MESH:D003693"; an HGVS form holds no colon before its first "|".
  if (colon > 0 && !raw.slice(0, colon).includes('|')) {
    return { namespace: canonicalNamespace(raw.slice(0, colon)), accession: raw.slice(colon + 1).trim() };
  }
  const namespace = defaultNamespace(type, raw, rules);
  return namespace === undefined || raw === '' ? undefined : { namespace, accession: raw };
}

/** Why an id (as stored or sent) is malformed, or undefined when it is well formed. */
export function conceptIdProblem(id: ConceptId): string | undefined {
  if (id.namespace === '' || /[\s:|,;]/.test(id.namespace)) return `"${id.namespace}" is not a namespace (a word such as MESH or NCBIGene)`;
  if (id.accession === '') return 'the accession after the namespace is empty';
  if (/[\s,;]/.test(id.accession) || (id.namespace !== 'HGVS' && id.accession.includes('|')))
    return `"${id.accession}" holds several ids or white space; send each id of a composite mention as its own item of ids`;
  const known = NAMESPACES[id.namespace];
  if (known && !known.accession.test(id.accession)) return `"${id.accession}" is not a ${known.title} accession (${known.form})`;
  return undefined;
}

/** Values of an id column that mean "not normalised": BC5CDR's -1, PubTator's - and empty. */
const NONE = new Set(['', '-', '-1', 'N/A', 'None']);

/**
 * The ids of a corpus's id column or infon, as written (not yet read): a composite mention's
 * ids are joined by `|` (BC5CDR, NCBI disease, BioRED), `,` or `;` (NLM-Chem, PubTator API).
 * A variant's tmVar form holds `|` itself: for variant types only `;` and `,` split.
 */
export function splitIdColumn(raw: string | undefined, type?: string): string[] {
  if (raw === undefined || NONE.has(raw.trim())) return [];
  const variant = type !== undefined && DEFAULT_NAMESPACES[fold(type)] === 'HGVS';
  const parts = raw.split(variant ? /[;,]/ : /[|;,]/).map((s) => s.trim());
  return parts.filter((s) => !NONE.has(s));
}

/**
 * Why an id column or infon is written wrong, or undefined: an empty id between or after
 * the separators of a composite (`D001943|`, `D001943||D010051`), or an id whose namespace
 * or accession is empty (`MESH:`, `:D001943`). A corpus holding one is refused: read
 * leniently, `D001943|` would lose a concept without a word.
 */
function idColumnProblem(raw: string | undefined, type?: string): string | undefined {
  if (raw === undefined || NONE.has(raw.trim())) return undefined;
  const variant = type !== undefined && DEFAULT_NAMESPACES[fold(type)] === 'HGVS';
  const parts = raw.split(variant ? /[;,]/ : /[|;,]/).map((s) => s.trim());
  if (parts.some((s) => s === ''))
    return `"${raw}" holds an empty id (a separator with nothing on one side); join a composite's ids as D001943|D010051`;
  for (const part of parts) {
    const colon = part.indexOf(':');
    if (colon < 0 || part.slice(0, colon).includes('|')) continue;
    if (colon === 0) return `"${part}" has no namespace before ":"`;
    if (part.slice(colon + 1).trim() === '') return `"${part}" has no accession after the namespace`;
  }
  return undefined;
}

/** The id as a bare accession where its namespace is the type's default (how BC5CDR writes), else `NS:accession`. */
export function corpusForm(stored: string, type: string | undefined, rules?: NamespaceRules): string {
  const id = readConceptId(stored);
  if (!id) return stored;
  const bare = defaultNamespace(type, id.accession, rules);
  return bare === id.namespace ? id.accession : stored;
}

/** Where a page links the id, and how it names the database; an unknown namespace has no link. */
export function conceptIdLink(stored: string): { href?: string; database?: string } {
  const id = readConceptId(stored);
  const ns = id ? NAMESPACES[id.namespace] : undefined;
  if (!id || !ns) return {};
  return ns.link && !conceptIdProblem(id) ? { href: ns.link(id.accession), database: ns.title } : { database: ns.title };
}

/**
 * The infon keys corpora put a BioC annotation's ids under, folded: `identifier` (PubTator's
 * BioC, NLM-Chem, BioRED) holds `NS:accession` or bare ids; a key that names a namespace
 * (`MESH` in BC5CDR's BioC, `NCBI Gene` in GNormPlus and NLM-Gene, `NCBI Taxonomy`) holds
 * bare accessions of that namespace.
 */
const ID_INFONS = ['identifier', 'identifiers', 'id', 'normalizedid', 'conceptid', 'database_id'];

/**
 * The ids of a corpus annotation, stored form, and the infon key they were read from (an
 * export writes them back under it). `ids` is empty when the annotation carries none;
 * `unread` lists parts that could not be read as ids (no namespace, no type giving one),
 * `malformed` ids read but not of their namespace's form (BioRED's `HGVS:p.P72R` beside
 * the tmVar form), both left out of `ids`; `problem` says why the value is written wrong
 * (idColumnProblem): a corpus holding one is refused. An id written twice counts once.
 */
export function annotationIds(
  infons: Readonly<Record<string, string>>,
  type: string | undefined,
  rules?: NamespaceRules,
): { ids: string[]; key?: string; unread: string[]; malformed: string[]; problem?: string } {
  const found = idInfonOf(infons);
  if (found) {
    const { key, value, namespace } = found;
    const ids: string[] = [];
    const unread: string[] = [];
    const malformed: string[] = [];
    const problem = idColumnProblem(value, type);
    for (const part of splitIdColumn(value, type)) {
      const id = namespace !== undefined && !part.includes(':') ? { namespace, accession: part } : readConceptId(part, type, rules);
      if (!id) unread.push(part);
      else if (conceptIdProblem(id)) malformed.push(part);
      else if (!ids.includes(formatConceptId(id))) ids.push(formatConceptId(id));
    }
    return { ids, key, unread, malformed, ...(problem !== undefined ? { problem } : {}) };
  }
  return { ids: [], unread: [], malformed: [] };
}

/**
 * The infon holding a corpus annotation's ids, as written: the first whose key is an id
 * key (ID_INFONS) or names a namespace (then `namespace`, its bare accessions' namespace).
 */
export function idInfonOf(infons: Readonly<Record<string, string>>): { key: string; value: string; namespace?: string } | undefined {
  for (const [key, value] of Object.entries(infons)) {
    const folded = fold(key);
    if (ID_INFONS.includes(folded)) return { key, value };
    if (ALIASES[folded] !== undefined) return { key, value, namespace: ALIASES[folded] };
  }
  return undefined;
}
