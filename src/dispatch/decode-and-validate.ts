// Reading one answer: decode it in the server's protocol (annotators/registry.ts), validate it for the tasks asked, and
// hand the result back as JSON text, ready to store. The same function runs on the main
// thread for small answers and in a reading thread for big ones (answer-reader.ts), so both
// give exactly the same outcome.
import type { FamilyLookups } from '../families/family.ts';
import type { AccessionLookup } from '../uniprot/index.ts';
import { validateAnswer, type ValidationContext } from '../families/validate.ts';
import type { ValidationIssue } from '../tasks/types.ts';
import type { Decoded } from './annotators/outcome.ts';
import { protocolOf } from './annotators/registry.ts';
import type { DecodedAnswer } from './annotators/types.ts';

/** What validation needs of the article and the server; the release indexes belong to the reader. */
export type AnswerContext = Omit<ValidationContext, 'accessions' | 'lookups'>;

/** The release indexes answers are validated against (UniProt; the families' own, by task). */
export interface ReleaseIndexes {
  accessions: AccessionLookup | null;
  lookups: FamilyLookups;
}

/** How many errors and warnings travel as objects too: for the one-line detail of a failed attempt, and the setup check's report. */
const FIRST_ISSUES = 20;

/** A validated answer as JSON text: the normalised result, and every error and warning. */
export interface AnswerText {
  result: string;
  errors: string;
  warnings: string;
  errorCount: number;
  firstErrors: ValidationIssue[];
  warningCount: number;
  firstWarnings: ValidationIssue[];
}

/**
 * Decodes (in the protocol named; XML-RPC when none) and validates; throws the protocol's
 * error (AnswerFormatError, XmlRpcProtocolError) when the body is not an answer in it.
 */
export function readAnswerNow(
  body: Uint8Array,
  charset: string | undefined,
  context: AnswerContext,
  indexes: ReleaseIndexes,
  protocol?: string,
): Decoded<AnswerText> {
  const decoded = protocolOf(protocol).decode(Buffer.from(body.buffer, body.byteOffset, body.byteLength), charset, context.text);
  return validateDecoded(decoded, context, indexes);
}

/** One article's part of a batch answer as read: its answer or fault, or why it cannot be read (a `protocol` failure of that article). */
export type BatchAnswerItem = Decoded<AnswerText> | { kind: 'unreadable'; message: string };

/**
 * A batch answer (annotators/batch.ts): decoded in the protocol's batch form, each item
 * validated against its own article's context; the server's fault for the whole call as
 * one fault. Throws like readAnswerNow for a body that is not a batch answer.
 */
export function readBatchNow(
  body: Uint8Array,
  charset: string | undefined,
  contexts: readonly AnswerContext[],
  indexes: ReleaseIndexes,
  protocol?: string,
): Decoded<BatchAnswerItem[]> {
  const form = protocolOf(protocol).batch;
  if (!form) throw new Error(`protocol ${protocol} has no batch form`);
  const buffer = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const decoded = form.decode(
    buffer,
    charset,
    contexts.map((c) => c.text),
  );
  if (decoded.kind === 'fault') return decoded;
  return {
    kind: 'value',
    value: decoded.items.map((item, i) => (item.kind === 'unreadable' ? item : validateDecoded(item, contexts[i], indexes))),
  };
}

function validateDecoded(decoded: DecodedAnswer, context: AnswerContext, indexes: ReleaseIndexes): Decoded<AnswerText> {
  if (decoded.kind === 'fault') return decoded;
  const validated = validateAnswer(decoded.value, { ...context, accessions: indexes.accessions, lookups: indexes.lookups });
  if (decoded.renamePath) {
    const rename = decoded.renamePath;
    for (const issue of [...validated.errors, ...validated.warnings]) issue.path = rename(issue.path);
  }
  // What the protocol found converting its answer comes first, as it comes first in the answer.
  if (decoded.errors?.length) validated.errors.unshift(...decoded.errors);
  if (decoded.warnings?.length) validated.warnings.unshift(...decoded.warnings);
  return {
    kind: 'value',
    value: {
      result: JSON.stringify(validated.result),
      errors: JSON.stringify(validated.errors),
      warnings: JSON.stringify(validated.warnings),
      errorCount: validated.errors.length,
      firstErrors: validated.errors.slice(0, FIRST_ISSUES),
      warningCount: validated.warnings.length,
      firstWarnings: validated.warnings.slice(0, FIRST_ISSUES),
    },
  };
}
