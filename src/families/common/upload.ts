// How uploaded gold standards and offline runs are read: tab-separated text, or JSON
// keyed by organiser id for tasks without a single-file form
//   {"documents": {"<id>": {"<field>": "<text>", …}}}
// Stored bodies are kept as sent (JSON uploads as JSON text) and parsed again when scoring.

import { ScoringInputError } from '../../scoring/index.ts';

/** The body as text, or a ScoringInputError saying how to send it. */
export function needText(task: string, body: unknown, what: string): string {
  if (typeof body !== 'string') {
    throw new ScoringInputError(`${task} ${what} must be BC II.5 tab-separated text`, {
      hint: 'send it with Content-Type: text/tab-separated-values',
    });
  }
  if (body.trim() === '') throw new ScoringInputError(`the ${what} is empty`, { hint: 'send one tab-separated record per line' });
  return body;
}

/** The `documents` object of a JSON upload, with each document's named text fields. */
export function jsonDocuments(task: string, body: unknown, what: string, fields: string[]): Map<string, Record<string, string>> {
  const form = `{"documents": {"<organiser id>": {${fields.map((f) => `"${f}": "…"`).join(', ')}}}}`;
  const hint = `send JSON of the form ${form} with Content-Type: application/json`;
  const documents = typeof body === 'object' && body !== null ? (body as { documents?: unknown }).documents : undefined;
  if (typeof documents !== 'object' || documents === null || Array.isArray(documents)) {
    throw new ScoringInputError(`${task} ${what} must be a JSON object with a "documents" object`, { hint });
  }
  const result = new Map<string, Record<string, string>>();
  for (const [id, doc] of Object.entries(documents as Record<string, unknown>)) {
    const record: Record<string, string> = {};
    for (const field of fields) {
      const value = typeof doc === 'object' && doc !== null ? (doc as Record<string, unknown>)[field] : undefined;
      if (typeof value !== 'string') throw new ScoringInputError(`documents["${id}"].${field} must be a string`, { hint });
      record[field] = value;
    }
    result.set(id, record);
  }
  if (result.size === 0) throw new ScoringInputError(`the ${what} holds no documents`, { hint });
  return result;
}
