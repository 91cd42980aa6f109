// PubAnnotation JSON for MENTION: one object per document,
//   {text, sourcedb, sourceid, denotations: [{id, span: {begin, end}, obj}], relations}
// as PubAnnotation takes uploads (one file per document, or a tar.gz of such files; the
// document is found by sourcedb and sourceid). PubAnnotation counts characters as code
// points, like our offsets, so spans are copied.
//
// Choices: an untyped mention is written with obj `Mention`; confidence, rank and section
// become PubAnnotation attributes (`{id, subj, pred, obj}`) on the denotation; mentions
// have no relations, so `relations` is empty. Relations and other attributes are ignored
// on import.

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

export interface PubAnnotationDocument {
  text: string;
  sourcedb?: string;
  sourceid?: string;
  denotations?: PubAnnotationDenotation[];
  attributes?: PubAnnotationAttribute[];
  relations?: Array<{ id: string; subj: string; obj: string; pred: string }>;
}

const EXTRA = ['confidence', 'rank', 'section'] as const;

/** Where the document comes from: `sourcedb` names the collection, `sourceid` the document in it. */
export interface PubAnnotationSource {
  sourcedb?: string;
  sourceid?: string;
}

export function exportPubAnnotation(text: string, mentions: readonly MentionItem[], source: PubAnnotationSource = {}): PubAnnotationDocument {
  const denotations: PubAnnotationDenotation[] = [];
  const attributes: PubAnnotationAttribute[] = [];
  mentions.forEach((m, i) => {
    const id = `T${i + 1}`;
    denotations.push({ id, span: { begin: m.start, end: m.end }, obj: typeName(m, 'pubannotation') });
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
  if (doc.denotations !== undefined && !Array.isArray(doc.denotations)) fail('"denotations" must be an array');
  const text = new CodePointText(doc.text);
  const byId = new Map<string, MentionItem>();
  const mentions = (doc.denotations ?? []).map((d, i) => {
    const { begin, end } = d?.span ?? {};
    if (!Number.isInteger(begin) || !Number.isInteger(end) || begin < 0 || end < begin || end > text.length) {
      fail(`denotations[${i}]: span ${JSON.stringify(d?.span)} is not within the text (${text.length} code points)`);
    }
    if (typeof d.obj !== 'string') fail(`denotations[${i}]: "obj" must be a string`);
    const mention: MentionItem = { start: begin, end, text: text.slice(begin, end), type: d.obj };
    if (typeof d.id === 'string') byId.set(d.id, mention);
    return mention;
  });
  for (const a of doc.attributes ?? []) {
    const mention = byId.get(a.subj);
    if (!mention) continue;
    if ((a.pred === 'confidence' || a.pred === 'rank') && typeof a.obj === 'number') mention[a.pred] = a.obj;
    else if (a.pred === 'section' && typeof a.obj === 'string') mention.section = a.obj;
  }
  return mentions;
}
