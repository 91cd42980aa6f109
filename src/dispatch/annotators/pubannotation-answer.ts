// A PubAnnotation answer as real annotators send it, read into the MENTION answer struct.
//
// The document is {text, denotations, relations?, modifications?, attributes?, blocks?}, or
// PubAnnotation's multi-track form {text, tracks: [{project, denotations, …}, …]} (what
// PubAnnotation itself hands out for a document annotated by several projects), whose
// tracks' denotations are all read; a document may have both. What is read:
// - each denotation becomes one mention (`obj` → type); a denotation without a type
//   (`"obj": null` or no `obj`, which some dictionary taggers send for an unresolved hit)
//   is kept as an untyped mention, with a warning naming it: one such denotation must not
//   cost the answer its other mentions;
// - concept ids, where the two kinds of annotator put them:
//   - PubDictionaries puts the dictionary entry's identifier in `obj` (its annotator,
//     `app/models/text_annotator.rb` in github.com/pubannotation/pubdictionaries, builds
//     `{span, obj: identifier, score, string}`; the identifier is what the dictionary's
//     uploader wrote: `MESH:D003693`, or a URI such as
//     `http://purl.obolibrary.org/obo/CHEBI_15377`, `http://id.nlm.nih.gov/mesh/D003693`,
//     `https://www.ncbi.nlm.nih.gov/gene/7124`). An `obj` that reads as an id (CONCEPT_URIS
//     below, or `NS:accession` with a namespace we know) makes an untyped mention with that
//     id: such an annotator says what the span is, not its entity type. Denotations of one
//     span whose `obj`s are ids (PubDictionaries sends ties so) make one mention with those
//     ids. An `obj` that is a URI of another kind stays the type, as before.
//   - PubAnnotation projects (PubTator's among them, as PubAnnotation serves them: see
//     test/fixtures/pubannotation/) keep the type in `obj` and the id in an attribute
//     `{subj: denotation, pred: "pubann:denotes", obj: "MESH:D009202"}` (PubAnnotation's
//     documentation, "Annotation format", pubannotation.org/docs/annotation-format/:
//     attributes are `{id, subj, pred, obj}`). Attributes whose pred (its part after a
//     prefix `xx:`) is `denotes`, `identifier`, `id`, `dbid`, `db_id`, `concept_id` or
//     `normalization` are read as ids; a pred naming a namespace (`MESH`, `NCBI Gene`)
//     takes a bare accession as of that namespace. A `type` attribute gives an untyped
//     denotation (one whose `obj` was an id) its type.
//   The mention's ids are then checked as every protocol's are (src/families/mention/ids.ts):
//   `denotations[4].ids[1]` counts the denotation's ids, its `obj` first, then its attributes.
// - attributes `confidence`, `rank` and `section` on a denotation (as our export writes
//   them), within the same track; without a confidence attribute, the denotation's own
//   `score` (PubDictionaries sends each match's similarity there, 0–1) is its confidence;
//   other keys of a denotation (PubDictionaries' `string`, `label`…) restate the text;
// - relations between two denotations with concept ids become CREL's relations between
//   their concepts (`pred` the type; pubannotation-relations.ts); other relations are
//   dropped with a warning;
// - everything else that annotates (modifications, other attributes, blocks,
//   discontinuous denotations in the "bagging" form `span: [{begin, end}, …]`) maps to no
//   task here and is dropped, named in a warning (one per kind and track).
// What breaks the answer (a span outside the text, a type that is not a string, a text
// that is not the one sent) is an error naming the denotation or the track.
import { crel } from '../../families/crel/index.ts';
import { mention } from '../../families/mention/index.ts';
import { CodePointText } from '../../shared/code-points.ts';
import type { ValidationIssue } from '../../tasks/types.ts';
import { idAttribute, idOfObject } from './pubannotation-ids.ts';
import { conceptRelationsOf } from './pubannotation-relations.ts';

const ATTRIBUTES = new Set(['confidence', 'rank', 'section', 'type']);
/** Annotation kinds that no task reads, with what each is in a warning. */
const DROPPED = [
  ['modifications', 'modification', 'no task of this challenge reads modifications (negation, speculation)'],
  ['blocks', 'block', 'no task of this challenge reads blocks (spans of text with no mention)'],
] as const;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isConfidence = (v: unknown): v is number => typeof v === 'number' && v > 0 && v <= 1;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Where two texts first differ, in code points. */
function firstDifference(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  let i = 0;
  while (i < x.length && i < y.length && x[i] === y[i]) i++;
  return i;
}

/** Why the answer's text is not the text sent, CR named when it is the difference. */
function textDifference(answered: string, sent: string): string {
  const at = firstDifference(answered, sent);
  const crs = answered.split('\r').length - 1;
  if (crs === 0)
    return `the answer's text differs from the text sent (first at character ${at}): spans must refer to the text exactly as sent`;
  // The meta-server sends a CR before a LF as a space and a lone CR as a LF, one for one;
  // a server may also have read the text back with CR LF line ends of its own.
  const asSent = answered.replace(/\r\n/g, ' \n').replace(/\r/g, '\n');
  const only = asSent === sent || answered.replace(/\r\n/g, '\n') === sent;
  const alone = only
    ? 'the carriage returns are the only difference'
    : `the texts differ otherwise too (first at character ${firstDifference(asSent, sent)} of the text sent)`;
  return `the answer's text has ${plural(crs, 'carriage return')} (CR) and the text sent has none: ${alone}. The meta-server never sends CR (a CR before a LF goes as a space, a lone CR as a LF, one for one), so the server read its text elsewhere or added them; spans must refer to the text exactly as sent`;
}

/** One set of annotations: the document itself, or one of its tracks. */
interface Layer {
  /** '' for the document, `tracks[2].` for a track. */
  prefix: string;
  /** How warnings name the layer: '' or ` in tracks[2] (project "X")`. */
  named: string;
  body: Record<string, unknown>;
}

export interface PubAnnotationMentions {
  value: Record<string, unknown>;
  errors: ValidationIssue[];
  warnings: ValidationIssue[];
  /** The denotation each mention came from (`tracks[1].denotations[4]`), for the validators' messages. */
  denotationOf: string[];
}

function layersOf(doc: Record<string, unknown>, errors: ValidationIssue[]): Layer[] {
  const layers: Layer[] = [{ prefix: '', named: '', body: doc }];
  if (doc.tracks === undefined) return layers;
  if (!Array.isArray(doc.tracks)) {
    errors.push({ path: 'tracks', message: 'expected an array of tracks [{project, denotations, …}]' });
    return layers;
  }
  doc.tracks.forEach((track, t) => {
    if (!isObject(track)) {
      errors.push({ path: `tracks[${t}]`, message: 'expected a track object {project, denotations, …}' });
      return;
    }
    const project = typeof track.project === 'string' ? ` (project ${JSON.stringify(track.project)})` : '';
    layers.push({ prefix: `tracks[${t}].`, named: ` in tracks[${t}]${project}`, body: track });
  });
  return layers;
}

/** The layer's confidence/rank/section attributes by denotation id; warns about the others. */
function attributesOf(layer: Layer, warnings: ValidationIssue[]): Map<string, Record<string, unknown>> {
  const byDenotation = new Map<string, Record<string, unknown>>();
  const list = Array.isArray(layer.body.attributes) ? layer.body.attributes : [];
  const ignored = new Map<string, number>();
  for (const a of list) {
    const id = isObject(a) && typeof a.subj === 'string' && typeof a.pred === 'string' ? idAttribute(a.pred, a.obj) : undefined;
    if (id !== undefined || (isObject(a) && typeof a.subj === 'string' && typeof a.pred === 'string' && ATTRIBUTES.has(a.pred))) {
      const subj = (a as { subj: string }).subj;
      const pred = (a as { pred: string }).pred;
      const own = byDenotation.get(subj) ?? {};
      if (id !== undefined) own.ids = [...((own.ids as unknown[] | undefined) ?? []), id];
      else own[pred] = (a as { obj: unknown }).obj;
      byDenotation.set(subj, own);
    } else {
      const pred = isObject(a) && typeof a.pred === 'string' ? a.pred : '(no pred)';
      ignored.set(pred, (ignored.get(pred) ?? 0) + 1);
    }
  }
  if (ignored.size > 0) {
    const total = [...ignored.values()].reduce((s, n) => s + n, 0);
    const preds = [...ignored.keys()].map((p) => JSON.stringify(p)).join(', ');
    warnings.push({
      path: `${layer.prefix}attributes`,
      message: `${plural(total, 'attribute')}${layer.named} ignored (pred ${preds}): only confidence, rank, section, type and ids (denotes, identifier…) are read`,
    });
  }
  return byDenotation;
}

/** PubAnnotation JSON → the answer struct {mentions: […]}, with what was wrong on the way. */
export function mentionsOfPubAnnotation(doc: unknown, sent: string): PubAnnotationMentions {
  const errors: ValidationIssue[] = [];
  const warnings: ValidationIssue[] = [];
  const denotationOf: string[] = [];
  if (!isObject(doc)) {
    errors.push({ path: '(answer)', message: 'expected a PubAnnotation JSON object {text, denotations: [{id, span: {begin, end}, obj}]}' });
    return { value: {}, errors, warnings, denotationOf };
  }
  if (typeof doc.text === 'string' && doc.text !== sent) errors.push({ path: 'text', message: textDifference(doc.text, sent) });
  const text = new CodePointText(sent);
  const mentions: Record<string, unknown>[] = [];
  const untyped: string[] = [];
  /** Denotations whose own `score` is no confidence (PubDictionaries gives abbreviations a kind there). */
  const unusedScores: string[] = [];
  /** Mentions made from an `obj` that is an id, by layer, span and type: where a tie's ids go. */
  const ties = new Map<string, Record<string, unknown>>();
  const relations: Array<Record<string, unknown>> = [];
  for (const layer of layersOf(doc, errors)) {
    /** The mention each denotation id of this layer became (a tie's: the mention it joined). */
    const mentionOfDenotation = new Map<string, Record<string, unknown>>();
    const denotations = layer.body.denotations ?? [];
    if (!Array.isArray(denotations)) {
      errors.push({ path: `${layer.prefix}denotations`, message: 'expected an array of denotations [{id, span: {begin, end}, obj}]' });
      continue;
    }
    for (const [key, word, why] of DROPPED) {
      const list = layer.body[key];
      if (Array.isArray(list) && list.length > 0)
        warnings.push({ path: `${layer.prefix}${key}`, message: `${plural(list.length, word)}${layer.named} ignored: ${why}` });
    }
    const attributes = attributesOf(layer, warnings);
    denotations.forEach((d, i) => {
      const path = `${layer.prefix}denotations[${i}]`;
      if (isObject(d) && Array.isArray(d.span)) {
        // PubAnnotation's "bagging" form of a discontinuous span: a mention here is one span.
        warnings.push({
          path: `${path}.span`,
          message: `a discontinuous span (${d.span.length} pieces)${layer.named} dropped: a mention is one span of text`,
        });
        return;
      }
      const item = mentionOf(d, path, text, errors);
      if (!item) return;
      const { ids: attributeIds, ...extra } = isObject(d) && typeof d.id === 'string' ? (attributes.get(d.id) ?? {}) : {};
      if (isObject(d) && d.score !== undefined && extra.confidence === undefined) {
        if (isConfidence(d.score)) item.confidence = d.score;
        else unusedScores.push(`${path} (${JSON.stringify(d.score).slice(0, 30)})`);
      }
      const mention = withIds({ ...item, ...extra }, attributeIds as unknown[] | undefined);
      if (item.ids && !attributeIds) {
        // PubDictionaries' ties: one span, several entries: one mention with their ids.
        const key = `${layer.prefix}${String(item.offset)}:${String(item.mention)}:${String(mention.type)}`;
        const earlier = ties.get(key);
        if (earlier) {
          if (isObject(d) && typeof d.id === 'string') mentionOfDenotation.set(d.id, earlier);
          return void addIds(earlier, item.ids as unknown[]);
        }
        ties.set(key, mention);
      }
      if (isObject(d) && typeof d.id === 'string') mentionOfDenotation.set(d.id, mention);
      mentions.push(mention);
      denotationOf.push(path);
      if (mention.type === undefined && mention.ids === undefined) untyped.push(path);
    });
    relations.push(...conceptRelationsOf(layer.body.relations, mentionOfDenotation, layer, warnings));
  }
  if (unusedScores.length > 0) {
    const named = unusedScores.slice(0, 5).join(', ') + (unusedScores.length > 5 ? ', …' : '');
    warnings.push({
      path: `${unusedScores[0].replace(/ .*$/, '')}.score`,
      message: `${plural(unusedScores.length, 'score')} not read as a confidence (a number in (0, 1]): ${named}`,
    });
  }
  if (untyped.length > 0) {
    const named = untyped.slice(0, 5).join(', ') + (untyped.length > 5 ? ', …' : '');
    warnings.push({
      path: `${untyped[0]}.obj`,
      message: `${plural(untyped.length, 'denotation')} without a type ("obj" null or absent: ${named}) kept as untyped mentions`,
    });
  }
  // Relations between concepts only when there are some: a MENTION-only server is not told its CREL key was not asked.
  const value = { [mention.answerKey]: mentions, ...(relations.length > 0 ? { [crel.answerKey]: relations } : {}) };
  return { value, errors, warnings, denotationOf };
}

/** One denotation as a mention, or undefined (with an error) when it cannot be one. */
function mentionOf(d: unknown, path: string, text: CodePointText, errors: ValidationIssue[]): Record<string, unknown> | undefined {
  if (!isObject(d) || !isObject(d.span)) {
    errors.push({ path, message: 'expected {id, span: {begin, end}, obj}' });
    return undefined;
  }
  const { begin, end } = d.span;
  if (!isIndex(begin) || !isIndex(end)) {
    errors.push({
      path: `${path}.span`,
      message: `begin and end must be whole numbers ≥ 0 (character positions in the text), got ${JSON.stringify(d.span).slice(0, 80)}`,
    });
    return undefined;
  }
  if (end <= begin) {
    errors.push({ path: `${path}.span`, message: `the span [${begin}, ${end}) is empty or reversed; end must be greater than begin` });
    return undefined;
  }
  if (end > text.length) {
    errors.push({
      path: `${path}.span`,
      message: `the span [${begin}, ${end}) runs past the end of the text (${text.length} characters, counted as code points)`,
    });
    return undefined;
  }
  if (d.obj !== undefined && d.obj !== null && typeof d.obj !== 'string') {
    errors.push({ path: `${path}.obj`, message: `expected the type as a string, got ${JSON.stringify(d.obj).slice(0, 60)}` });
    return undefined;
  }
  const item: Record<string, unknown> = { offset: begin, mention: text.slice(begin, end) };
  const id = typeof d.obj === 'string' ? idOfObject(d.obj) : undefined;
  if (id !== undefined) item.ids = [id];
  else if (typeof d.obj === 'string') item.type = d.obj;
  return item;
}

/** The mention with its attributes' ids after its own (an `obj` that was an id). */
function withIds(item: Record<string, unknown>, more: unknown[] | undefined): Record<string, unknown> {
  if (!more) return item;
  return { ...item, ids: [...((item.ids as unknown[] | undefined) ?? []), ...more] };
}

function addIds(mention: Record<string, unknown>, ids: unknown[]): void {
  const own = mention.ids as unknown[];
  for (const id of ids) if (!own.includes(id)) own.push(id);
}
