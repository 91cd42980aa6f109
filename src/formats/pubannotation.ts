// PubAnnotation JSON for MENTION: one object per document,
//   {text, sourcedb, sourceid, denotations: [{id, span: {begin, end}, obj}], relations}
// as PubAnnotation takes uploads (one file per document, or a tar.gz of such files; the
// document is found by sourcedb and sourceid). PubAnnotation counts characters as code
// points, like our offsets, so spans are copied.
//
// Choices: an untyped mention is written with obj `Mention`; concept ids (one attribute
// `pred: "identifier"`, `obj: "MESH:D003693"` each), confidence, rank and section
// become PubAnnotation attributes (`{id, subj, pred, obj}`) on the denotation; mentions
// have no relations, so `relations` is empty. Relations and other attributes are ignored
// on import; a denotation with `"obj": null` or no `obj` is read as an untyped mention, and
// a multi-track document (`tracks: [{project, denotations, attributes}]`, as PubAnnotation
// hands out a document annotated by several projects) gives every track's denotations.

import { CodePointText } from '../shared/code-points.ts';
import type { MentionItem } from '../families/mention/types.ts';
import { FormatError, typeName } from './common.ts';

export interface PubAnnotationDenotation {
  id: string;
  span: { begin: number; end: number };
  obj: string;
}

export interface PubAnnotationAttribute {
  id: string;
  subj: string;
  pred: string;
  obj: string | number;
}

export interface PubAnnotationTrack {
  project?: string;
  denotations?: PubAnnotationDenotation[];
  attributes?: PubAnnotationAttribute[];
}

export interface PubAnnotationDocument {
  text: string;
  tracks?: PubAnnotationTrack[];
  sourcedb?: string;
  sourceid?: string;
  denotations?: PubAnnotationDenotation[];
  attributes?: PubAnnotationAttribute[];
  relations?: Array<{ id: string; subj: string; obj: string; pred: string }>;
}

const EXTRA = ['confidence', 'rank', 'section'] as const;

/** The attribute predicate of a denotation's concept id (`NS:accession`), one attribute per id. */
const IDENTIFIER = 'identifier';

/** Where the document comes from: `sourcedb` names the collection, `sourceid` the document in it. */
export interface PubAnnotationSource {
  sourcedb?: string;
  sourceid?: string;
}

export function exportPubAnnotation(
  text: string,
  mentions: readonly MentionItem[],
  source: PubAnnotationSource = {},
): PubAnnotationDocument {
  const denotations: PubAnnotationDenotation[] = [];
  const attributes: PubAnnotationAttribute[] = [];
  mentions.forEach((m, i) => {
    const id = `T${i + 1}`;
    denotations.push({ id, span: { begin: m.start, end: m.end }, obj: typeName(m, 'pubannotation') });
    for (const conceptId of m.ids ?? []) attributes.push({ id: `A${attributes.length + 1}`, subj: id, pred: IDENTIFIER, obj: conceptId });
    for (const pred of EXTRA) {
      const value = m[pred];
      if (value !== undefined) attributes.push({ id: `A${attributes.length + 1}`, subj: id, pred, obj: value });
    }
  });
  // Written in this key order, the way PubAnnotation shows a document.
  return {
    text,
    ...(source.sourcedb !== undefined ? { sourcedb: source.sourcedb } : {}),
    ...(source.sourceid !== undefined ? { sourceid: source.sourceid } : {}),
    denotations,
    relations: [],
    ...(attributes.length > 0 ? { attributes } : {}),
  };
}

function fail(message: string): never {
  throw new FormatError('pubannotation', message);
}

export function importPubAnnotation(json: string | PubAnnotationDocument): MentionItem[] {
  let doc: PubAnnotationDocument;
  try {
    doc = typeof json === 'string' ? (JSON.parse(json) as PubAnnotationDocument) : json;
  } catch (error) {
    fail(`not JSON: ${(error as Error).message}`);
  }
  if (typeof doc !== 'object' || doc === null || typeof doc.text !== 'string') fail('a document needs a "text" string');
  const text = new CodePointText(doc.text);
  if (doc.tracks !== undefined && !Array.isArray(doc.tracks)) fail('"tracks" must be an array of {project, denotations}');
  const layers: Array<{ at: string; layer: PubAnnotationTrack }> = [{ at: '', layer: doc }];
  (doc.tracks ?? []).forEach((track, t) => layers.push({ at: `tracks[${t}].`, layer: track }));
  const mentions: MentionItem[] = [];
  for (const { at, layer } of layers) {
    if (typeof layer !== 'object' || layer === null) fail(`${at.slice(0, -1)}: a track must be an object {project, denotations}`);
    if (layer.denotations !== undefined && !Array.isArray(layer.denotations)) fail(`${at}denotations: must be an array`);
    // Attributes name denotations of their own track.
    const byId = new Map<string, MentionItem>();
    (layer.denotations ?? []).forEach((d, i) => {
      const { begin, end } = d?.span ?? {};
      if (!Number.isInteger(begin) || !Number.isInteger(end) || begin < 0 || end < begin || end > text.length) {
        fail(`${at}denotations[${i}]: span ${JSON.stringify(d?.span)} is not within the text (${text.length} code points)`);
      }
      if (d.obj !== undefined && d.obj !== null && typeof d.obj !== 'string')
        fail(`${at}denotations[${i}]: "obj" must be a string (or null for an untyped mention)`);
      const mention: MentionItem = {
        start: begin,
        end,
        text: text.slice(begin, end),
        ...(typeof d.obj === 'string' ? { type: d.obj } : {}),
      };
      if (typeof d.id === 'string') byId.set(d.id, mention);
      mentions.push(mention);
    });
    for (const a of layer.attributes ?? []) {
      const mention = byId.get(a.subj);
      if (!mention) continue;
      if ((a.pred === 'confidence' || a.pred === 'rank') && typeof a.obj === 'number') mention[a.pred] = a.obj;
      else if (a.pred === 'section' && typeof a.obj === 'string') mention.section = a.obj;
      else if (a.pred === IDENTIFIER && typeof a.obj === 'string' && !(mention.ids ?? []).includes(a.obj))
        mention.ids = [...(mention.ids ?? []), a.obj];
    }
  }
  return mentions;
}
