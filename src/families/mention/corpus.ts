// MENTION gold and runs from a corpus: every annotation with a location is a mention of
// its `type` (BioC infon, PubTator column), written as the brat `.ann` text the MENTION
// upload holds, one per document. Every document of the corpus is in it, also one without
// annotations (its mentions are then all false positives). Annotations without a
// location (about the whole document) are not mentions: counted in a warning. A type is
// one brat word: white space in it becomes "_", named in a warning; an untyped
// annotation is scored under "untyped", as an untyped online mention is.
//
// Concept ids (PubTator's sixth column, BioC's `identifier`, `MESH`, `NCBI Gene`… infons:
// annotationIds) follow their T line as brat normalization lines, one per id:
// `N1<TAB>Reference T1 MESH:D007674<TAB>renal dysfunction` (brat's own form: RID the
// namespace, EID the accession). The text is the id's individual mention when the corpus
// names one per id (BC5CDR's seventh column), else the mention's text. An id that cannot be
// read (no namespace, and a type without a default one) or is malformed for its namespace
// is left out, counted in a warning; an id column written wrong (`D001943|`, `MESH:`)
// refuses the document, naming its line (PubTator) or annotation (BioC). The individual
// mentions of a composite in BC5CDR's BioC are left out (COMPOSITE_ROLE), so its BioC and
// PubTator files give the same gold. Any other discontinuous annotation (two or more
// locations) is left out too, each named in a warning: a mention is one span, and the span
// covering its fragments would hold text it does not.
import { isDiscontinuous, type CorpusAnnotation, type CorpusDocument } from '../../formats/bioc-corpus.ts';
import { INDIVIDUAL_MENTIONS } from '../../formats/pubtator.ts';
import { annotationIds, type NamespaceRules } from '../../tasks/concept-ids.ts';
import { discontinuousWarnings, type DiscontinuousLeftOut } from '../common/discontinuous.ts';
import type { CorpusConversion, FamilyCorpus, UploadContext } from '../family.ts';
import { UNTYPED } from './types.ts';

/**
 * BC5CDR's BioC writes a composite mention ("hemorrhagic cystitis", MESH D006470|D003556)
 * and, as annotations of their own, its individual mentions (CompositeRole
 * IndividualMention), which its PubTator files and evaluation do not count as mentions.
 */
const COMPOSITE_ROLE = 'CompositeRole';

/** An individual mention of a composite in BC5CDR's BioC: not a mention of its own. */
export const isIndividualMention = (a: CorpusAnnotation): boolean => a.infons[COMPOSITE_ROLE] === 'IndividualMention';

const oneLine = (s: string): string => s.replace(/[\t\r\n\v\f\u2028\u2029\x85]/g, ' ');

/** Where the annotation is, for people: PubTator's annotation ids are `L<line>`. */
const whereIs = (a: CorpusAnnotation): string => (/^L\d+$/.test(a.id) ? `line ${a.id.slice(1)}` : `annotation ${a.id}`);

interface IdTally {
  unread: Set<string>;
  malformed: Set<string>;
  ids: number;
}

/** The N lines of T<n>'s ids; throws the reason when the id column is written wrong. */
function normalizationLines(a: CorpusAnnotation, t: number, firstN: number, rules: NamespaceRules | undefined, tally: IdTally): string[] {
  const read = annotationIds(a.infons, a.type, rules);
  if (read.problem !== undefined) throw new Error(`${whereIs(a)}: the id ${read.key ?? 'column'} ${read.problem}`);
  read.unread.forEach((u) => tally.unread.add(u));
  read.malformed.forEach((u) => tally.malformed.add(u));
  tally.ids += read.ids.length;
  const individual = a.infons[INDIVIDUAL_MENTIONS]?.split('|');
  const names = individual && individual.length === read.ids.length ? individual : undefined;
  return read.ids.map((id, k) => `N${firstN + k}\tReference T${t} ${id}\t${oneLine(names?.[k]?.trim() || a.text)}`);
}

function idWarnings(tally: IdTally): string[] {
  const warnings: string[] = [];
  const some = (s: Set<string>) => [...s].slice(0, 5).join(', ');
  if (tally.unread.size > 0)
    warnings.push(
      `${tally.unread.size} id(s) have no namespace and their mention's type gives none (${some(tally.unread)}); left out: write them as NS:accession`,
    );
  if (tally.malformed.size > 0)
    warnings.push(`${tally.malformed.size} id(s) are not of their namespace's form (${some(tally.malformed)}); left out`);
  return warnings;
}

function mentionDocuments(documents: readonly CorpusDocument[], context?: UploadContext): CorpusConversion {
  const warnings: string[] = [];
  const failures: Array<{ document: string; reason: string }> = [];
  const tally: IdTally = { unread: new Set(), malformed: new Set(), ids: 0 };
  let whole = 0;
  let individual = 0;
  let relations = 0;
  const discontinuous: DiscontinuousLeftOut[] = [];
  const renamed = new Map<string, string>();
  const out: Record<string, { ann: string }> = {};
  for (const doc of documents) {
    const lines: string[] = [];
    let t = 0;
    let n = 0;
    relations += doc.relations.length;
    try {
      for (const a of doc.annotations) {
        if (a.start === undefined || a.end === undefined) {
          whole++;
          continue;
        }
        if (isIndividualMention(a)) {
          individual++;
          continue;
        }
        if (isDiscontinuous(a)) {
          discontinuous.push({ document: doc.id, annotation: a });
          continue;
        }
        let type = a.type === undefined || a.type.trim() === '' ? UNTYPED : a.type;
        if (/\s/.test(type)) {
          const word = type.trim().replace(/\s+/g, '_');
          renamed.set(type, word);
          type = word;
        }
        lines.push(`T${++t}\t${type} ${a.start} ${a.end}\t${oneLine(a.text)}`);
        const normalizations = normalizationLines(a, t, n + 1, context?.mentionNamespaces, tally);
        n += normalizations.length;
        lines.push(...normalizations);
      }
    } catch (err) {
      failures.push({ document: doc.id, reason: (err as Error).message });
    }
    out[doc.id] = { ann: lines.join('\n') };
  }
  if (whole > 0) warnings.push(`${whole} annotation(s) without a location (about the whole document) are not mentions and were left out`);
  if (individual > 0)
    warnings.push(
      `${individual} individual mention(s) of composite mentions (CompositeRole IndividualMention) are not mentions of their own, as in BC5CDR's PubTator files: their composite carries their ids`,
    );
  warnings.push(...discontinuousWarnings(discontinuous, 'MENTION', 'a mention'));
  if (relations > 0) warnings.push(`${relations} relation(s) were left out: MENTION scores mentions only`);
  for (const [from, to] of renamed) warnings.push(`type "${from}" holds white space; scored as "${to}"`);
  warnings.push(...idWarnings(tally));
  return { body: { documents: out }, warnings, ...(failures.length > 0 ? { failures } : {}) };
}

export const mentionCorpus: FamilyCorpus = {
  takes:
    'every annotation with one location, typed by its type infon (BioC) or type column (PubTator), with its concept ids (PubTator id column; BioC identifier, MESH or NCBI Gene infon)',
  gold: mentionDocuments,
  run: mentionDocuments,
};
