// The shapes every task family shares: the task names, the XML-RPC answer key of each,
// the normalised results stored and served by the API, and the validation report.

export const TASK_NAMES = ['ACT', 'INT', 'IPT', 'MENTION', 'COREF'] as const;
export type TaskName = (typeof TASK_NAMES)[number];

/** The key of the answer struct that carries each task's result (xmlrpc-protocol.md). */
export const ANSWER_KEYS: Record<TaskName, string> = {
  ACT: 'interaction',
  INT: 'normalizations',
  IPT: 'pairs',
  MENTION: 'mentions',
  COREF: 'coref',
};

export function isTaskName(value: string): value is TaskName {
  return (TASK_NAMES as readonly string[]).includes(value);
}

export interface ActResult {
  relevant: boolean;
  confidence: number;
}

export interface NormalizationItem {
  accession: string;
  rank: number;
  confidence?: number;
  taxid?: number;
  evidence?: string;
}

export interface PairItem {
  /** a ≤ b (string order), so a pair has one spelling. */
  a: string;
  b: string;
  rank: number;
  confidence?: number;
  evidence?: string;
}

export interface MentionItem {
  /** Code-point offsets into the text as sent, start inclusive, end exclusive. */
  start: number;
  end: number;
  text: string;
  type?: string;
  confidence?: number;
  section?: string;
  /** Only when the server sent one (MENTION ranks are optional and never filled in). */
  rank?: number;
}

export interface CorefExpression {
  id: string;
  start: number;
  end: number;
  text: string;
  /** The minimal boundary (head), when the standoff line gives one. */
  min?: { start: number; end: number; text: string };
}

export interface CorefLink {
  id: string;
  anaphor: string;
  antecedent: string;
  /** Protein ids named in brackets on the link line (informative only). */
  proteins?: string[];
}

export interface CorefResult {
  expressions: CorefExpression[];
  links: CorefLink[];
}

/** The validated, normalised answer of one server for one article: one entry per task answered. */
export interface AnswerResult {
  ACT?: ActResult;
  INT?: NormalizationItem[];
  IPT?: PairItem[];
  MENTION?: MentionItem[];
  COREF?: CorefResult;
}

/** One problem found in an answer, with the exact place: `normalizations[3].confidence`. */
export interface ValidationIssue {
  path: string;
  message: string;
}

export interface ValidatedAnswer {
  result: AnswerResult;
  /** Non-empty → the answer is invalid; the attempt fails and is reissued. */
  errors: ValidationIssue[];
  /** The answer stays valid; items were dropped or mapped. */
  warnings: ValidationIssue[];
}
