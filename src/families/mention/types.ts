// MENTION: mentions with code-point spans, as stored and served.

export interface MentionItem {
  /** Code-point offsets into the text as sent, start inclusive, end exclusive. */
  start: number;
  end: number;
  text: string;
  type?: string;
  /**
   * The concept ids the mention is normalised to, `NS:accession` as stored
   * (src/tasks/concept-ids.ts): several for a composite mention; absent when the server
   * sent none (an empty list, sent, means "could not normalise" and is kept).
   */
  ids?: string[];
  /**
   * The BioC infon key the ids were read from when it was not `identifier` (BC5CDR's
   * `MESH`, GNormPlus's `NCBI Gene`): a BioC export writes them back under it.
   */
  idKey?: string;
  confidence?: number;
  section?: string;
  /** Only when the server sent one (MENTION ranks are optional and never filled in). */
  rank?: number;
}

/** Mentions without a type are scored under this one (a brat line always has a type). */
export const UNTYPED = 'untyped';
