// The sample annotator: a deliberately simple, deterministic tagger that answers all nine
// tasks, so a team sees a complete, valid answer and the tests have a known reference.
// The samples under examples/ (Python, Perl, Ruby) implement exactly the same rules; tests
// check that all of them give identical answers, so change them together.
//
// Boundaries: a "word boundary" below means the neighbouring character is not an ASCII
// letter or digit (explicit look-arounds, not \b, because \b differs between JavaScript
// and Python for non-ASCII letters). Offsets count Unicode code points of `text`.
//
// ACT  `interaction`: [relevant, confidence]. n = number of non-overlapping,
//      ASCII-case-insensitive occurrences of "interact", "bind" or "complex" (as parts of
//      words too: "binds", "interaction"). n > 0 → [true, n/(n+1)]; n = 0 → [false, 0.5].
// INT  `normalizations`: every well-formed UniProt accession standing as a word
//      (pattern [OPQ][0-9][A-Z0-9]{3}[0-9] | [A-NR-Z][0-9]([A-Z][A-Z0-9]{2}[0-9]){1,2}),
//      once each, in order of first occurrence: {dbid, dbname: "UniProt", rank: i,
//      confidence: 1/(i+1)} for i = 1, 2, …
// IPT  `pairs`: each two consecutive accessions of that list: {a, b, rank: i,
//      confidence: 1/(i+1)}.
// MENTION `mentions`: every word that starts with an ASCII letter, consists of ASCII
//      letters and digits, holds at least one uppercase letter and one digit and is not
//      a UniProt accession ("BRCA1", "IL2R", not "p53", not "P37840"), in text order:
//      {offset, mention, type: "protein", ids?, confidence: 0.9 when it has no lowercase
//      letter, else 0.6}; `ids` ["NCBIGene:…"] when the word is one of GENE_IDS (human
//      genes: BRCA1 672, BRCA2 675, TP53 7157, MDM2 4193, CD4 920), absent otherwise.
// COREF `coref`: `given` is read as standoff lines `T<n>\t<Type> <start> <end>\t<text>`
//      (other lines ignored; spans outside the text or holding tab/CR/LF ignored). Each
//      pronoun word "it", "its", "they" (first letter either case) is linked to the given
//      protein that ends nearest before it (latest end, then latest start, then first
//      listed). Each linked protein gets one `Exp` expression copying its span, each
//      pronoun one `Exp`, with ids counting on from the highest given T number; links
//      are `R<k>\tCoref Anaphora:T<pronoun> Antecedent:T<protein exp> [T<given id>]` (as the
//      BioNLP-ST 2011 link lines).
//      All T lines first (in creation order), then R lines, joined by "\n" without a
//      final newline; "" when there is no link.
// TX   `taxons`: the species named by a word or two from the short list SPECIES below
//      (matched after ASCII-only lower-casing, standing as words: "Human", "mice",
//      "Mus musculus"), each NCBI Taxonomy id once, in order of first occurrence:
//      {taxid, rank: i, confidence: 1/(i+1)}.
// TOPIC `topics`: each LitCovid topic whose stem in TOPIC_STEMS below occurs (ASCII, any
//      case, also inside words: "treated", "Vaccine-prevented"), in the list's order:
//      {label, confidence: n/(n+1)} for n non-overlapping occurrences; [] when none.
// REL  `relations`: `given` is read as standoff lines `T<n>\t<Type> <start> <end>\t<text>`
//      (other lines ignored, and spans past the text). For each entity typed CHEMICAL and
//      each entity whose type starts with GENE that starts at or after the chemical's end
//      (both in given order): the text between them, when it holds no ".", names the
//      relation: "inhibit" (ASCII-case-insensitive) → INHIBITOR, else "activat" →
//      ACTIVATOR, else none. {type, arg1: "T<chemical>", arg2: "T<gene>", rank: i,
//      confidence: 1/(i+1)} for i = 1, 2, … in that order.
// CREL `concept_relations`: the first two distinct ids the answer's mentions carry (in
//      mention order, a mention's ids in their order), each with the type of the first
//      mention carrying it. A Chemical and a Disease (either order, any case) make
//      {type: "CID", concept1: the chemical's, concept2: the disease's}; any other two
//      {type: "Association", concept1, concept2, novelty: "Novel"}; both with rank 1,
//      confidence 0.5. [] when the mentions carry fewer than two ids.
import type { XmlRpcValue } from '../xmlrpc/codec.ts';
import { CodePointText } from '../shared/code-points.ts';

const ACCESSION = '(?:[OPQ][0-9][A-Z0-9]{3}[0-9]|[A-NR-Z][0-9](?:[A-Z][A-Z0-9]{2}[0-9]){1,2})';
const ACCESSION_WORD = new RegExp(`(?<![A-Za-z0-9])${ACCESSION}(?![A-Za-z0-9])`, 'g');
const ACCESSION_ONLY = new RegExp(`^${ACCESSION}$`);
const INTERACTION_WORD = /interact|bind|complex/gi; // no `u` flag: ASCII-only case folding, as Python's re.ASCII
const TOKEN = /(?<![A-Za-z0-9])[A-Za-z][A-Za-z0-9]*/g;
const PRONOUN = /(?<![A-Za-z0-9])(?:[Ii]ts?|[Tt]hey)(?![A-Za-z0-9])/g;
const GIVEN_LINE = /^T([0-9]+)\t[^\t ]+ ([0-9]+) ([0-9]+)\t/;
const GIVEN_ENTITY = /^(T[0-9]+)\t([^\t ]+) ([0-9]+) ([0-9]+)\t/;
/** Species names (lower case) and their NCBI Taxonomy ids; the samples under examples/ hold the same list. */
const SPECIES: Record<string, number> = {
  'homo sapiens': 9606,
  human: 9606,
  humans: 9606,
  'mus musculus': 10090,
  mouse: 10090,
  mice: 10090,
  'rattus norvegicus': 10116,
  rat: 10116,
  rats: 10116,
  'saccharomyces cerevisiae': 4932,
  yeast: 4932,
  'escherichia coli': 562,
  'danio rerio': 7955,
  zebrafish: 7955,
  drosophila: 7227,
  arabidopsis: 3702,
};
/** LitCovid's topics (BioCreative VII track 5) and the stem that names each; the samples under examples/ hold the same list. */
const TOPIC_STEMS: ReadonlyArray<readonly [string, string]> = [
  ['Treatment', 'treat'],
  ['Diagnosis', 'diagnos'],
  ['Prevention', 'prevent'],
  ['Mechanism', 'mechanism'],
  ['Transmission', 'transmi'],
  ['Epidemic Forecasting', 'forecast'],
  ['Case Report', 'case report'],
];
// Longer names first, so "homo sapiens" is one match; every name is plain lower-case letters and spaces.
const SPECIES_WORD = new RegExp(
  `(?<![A-Za-z0-9])(?:${Object.keys(SPECIES)
    .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
    .join('|')})(?![A-Za-z0-9])`,
  'g',
);

function findAccessions(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(ACCESSION_WORD)) seen.add(match[0]);
  return [...seen];
}

function classify(text: string): [boolean, number] {
  const n = text.match(INTERACTION_WORD)?.length ?? 0;
  return n > 0 ? [true, n / (n + 1)] : [false, 0.5];
}

/** The sample's dictionary of concept ids: a few human genes, NCBI Gene ids. */
const GENE_IDS: Readonly<Record<string, string>> = {
  BRCA1: 'NCBIGene:672',
  BRCA2: 'NCBIGene:675',
  TP53: 'NCBIGene:7157',
  MDM2: 'NCBIGene:4193',
  CD4: 'NCBIGene:920',
};

function findMentions(text: string): XmlRpcValue[] {
  const points = new CodePointText(text);
  const mentions: XmlRpcValue[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0];
    if (!/[A-Z]/.test(token) || !/[0-9]/.test(token) || ACCESSION_ONLY.test(token)) continue;
    const confidence = /[a-z]/.test(token) ? 0.6 : 0.9;
    const mention: Record<string, XmlRpcValue> = { offset: points.codePointIndex(match.index), mention: token, type: 'protein' };
    if (Object.hasOwn(GENE_IDS, token)) mention.ids = [GENE_IDS[token]];
    mentions.push({ ...mention, confidence });
  }
  return mentions;
}

interface GivenProtein {
  id: number;
  start: number;
  end: number;
}

function readGiven(given: string, points: string[]): GivenProtein[] {
  const proteins: GivenProtein[] = [];
  for (const line of given.split('\n')) {
    const m = GIVEN_LINE.exec(line);
    if (!m) continue;
    const [id, start, end] = [Number(m[1]), Number(m[2]), Number(m[3])];
    if (start >= end || end > points.length) continue;
    if (/[\t\r\n]/.test(points.slice(start, end).join(''))) continue;
    proteins.push({ id, start, end });
  }
  return proteins;
}

function corefStandoff(text: string, given: string): string {
  if (given.trim() === '') return '';
  const points = Array.from(text);
  const proteins = readGiven(given, points);
  if (proteins.length === 0) return '';
  const codePoints = new CodePointText(text);
  let nextId = Math.max(...given.split('\n').map((l) => Number(/^T([0-9]+)\t/.exec(l)?.[1] ?? 0))) + 1;
  const expressions: string[] = [];
  const links: string[] = [];
  const protExp = new Map<GivenProtein, number>();
  const exp = (start: number, end: number): number => {
    const id = nextId++;
    expressions.push(`T${id}\tExp ${start} ${end}\t${points.slice(start, end).join('')}`);
    return id;
  };
  for (const match of text.matchAll(PRONOUN)) {
    const start = codePoints.codePointIndex(match.index);
    let best: GivenProtein | undefined;
    for (const p of proteins) {
      if (p.end > start) continue;
      if (!best || p.end > best.end || (p.end === best.end && p.start > best.start)) best = p;
    }
    if (!best) continue;
    let antecedent = protExp.get(best);
    if (antecedent === undefined) {
      antecedent = exp(best.start, best.end);
      protExp.set(best, antecedent);
    }
    const anaphor = exp(start, start + match[0].length);
    links.push(`R${links.length + 1}\tCoref Anaphora:T${anaphor} Antecedent:T${antecedent} [T${best.id}]`);
  }
  return links.length === 0 ? '' : [...expressions, ...links].join('\n');
}

function findTaxa(text: string): XmlRpcValue[] {
  const lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase()); // ASCII letters only, as the other samples
  const seen = new Set<number>();
  for (const match of lower.matchAll(SPECIES_WORD)) seen.add(SPECIES[match[0]]);
  return [...seen].map((taxid, i) => ({ taxid, rank: i + 1, confidence: 1 / (i + 2) }));
}

function findTopics(text: string): XmlRpcValue[] {
  const lower = text.replace(/[A-Z]/g, (c) => c.toLowerCase()); // ASCII letters only, as the other samples
  const topics: XmlRpcValue[] = [];
  for (const [label, stem] of TOPIC_STEMS) {
    const n = lower.split(stem).length - 1;
    if (n > 0) topics.push({ label, confidence: n / (n + 1) });
  }
  return topics;
}

function findRelations(text: string, given: string): XmlRpcValue[] {
  const points = Array.from(text);
  const entities = given.split('\n').flatMap((line) => {
    const m = GIVEN_ENTITY.exec(line);
    if (!m || Number(m[4]) > points.length || Number(m[3]) > Number(m[4])) return [];
    return [{ id: m[1], type: m[2], start: Number(m[3]), end: Number(m[4]) }];
  });
  const relations: XmlRpcValue[] = [];
  for (const c of entities.filter((e) => e.type === 'CHEMICAL')) {
    for (const g of entities.filter((e) => e.type.startsWith('GENE'))) {
      if (g.start < c.end) continue;
      const between = points
        .slice(c.end, g.start)
        .join('')
        .replace(/[A-Z]/g, (x) => x.toLowerCase());
      if (between.includes('.')) continue;
      const type = between.includes('inhibit') ? 'INHIBITOR' : between.includes('activat') ? 'ACTIVATOR' : undefined;
      if (type) relations.push({ type, arg1: c.id, arg2: g.id, rank: relations.length + 1, confidence: 1 / (relations.length + 2) });
    }
  }
  return relations;
}

export function findConceptRelations(mentions: XmlRpcValue[]): XmlRpcValue[] {
  const concepts: Array<{ id: string; type: string }> = [];
  for (const m of mentions as Array<{ ids?: string[]; type?: string }>)
    for (const id of m.ids ?? []) if (!concepts.some((c) => c.id === id)) concepts.push({ id, type: (m.type ?? '').toLowerCase() });
  if (concepts.length < 2) return [];
  const [a, b] = concepts;
  const chemical = a.type === 'chemical' ? a : b.type === 'chemical' ? b : undefined;
  const disease = a.type === 'disease' ? a : b.type === 'disease' ? b : undefined;
  if (chemical && disease && chemical !== disease)
    return [{ type: 'CID', concept1: chemical.id, concept2: disease.id, rank: 1, confidence: 0.5 }];
  return [{ type: 'Association', concept1: a.id, concept2: b.id, novelty: 'Novel', rank: 1, confidence: 0.5 }];
}

/** The sample answer for one article: all nine task keys (see the rules above). */
export function annotate(text: string, given = ''): Record<string, XmlRpcValue> {
  const accessions = findAccessions(text);
  const pairs: XmlRpcValue[] = [];
  for (let i = 0; i + 1 < accessions.length; i++) {
    pairs.push({ a: accessions[i], b: accessions[i + 1], rank: i + 1, confidence: 1 / (i + 2) });
  }
  return {
    interaction: classify(text),
    normalizations: accessions.map((dbid, i) => ({ dbid, dbname: 'UniProt', rank: i + 1, confidence: 1 / (i + 2) })),
    pairs,
    mentions: findMentions(text),
    coref: corefStandoff(text, given),
    taxons: findTaxa(text),
    topics: findTopics(text),
    relations: findRelations(text, given),
    concept_relations: findConceptRelations(findMentions(text)),
  };
}
