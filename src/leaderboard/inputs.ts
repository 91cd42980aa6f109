// Uploaded gold standards and offline runs → the scoring structures of the task's family
// (src/families/*: its `scoring`), tagged with the task so a run is only ever scored
// against gold of the same task. Tab-separated uploads are read by the scoring library's
// own parsers, so an upload is accepted exactly when the official script would accept it;
// tasks without a single-file form travel as JSON keyed by organiser id (each family's
// `goldForm` says which).

import type { ColumnLayout } from '../scoring/index.ts';
import { familyOf, type TaskName } from '../families/registry.ts';
import type { UploadContext } from '../families/family.ts';

/** A parsed gold standard: the family's structure, opaque here. */
export interface Gold {
  task: TaskName;
  gold: unknown;
}

/** A parsed run (offline, online or consensus): the family's structure, opaque here. */
export interface RunData {
  task: TaskName;
  run: unknown;
}

export interface ParsedGold {
  gold: Gold;
  documents: number;
  items: number;
  warnings: string[];
}

/** Parses a gold upload (of the challenge `context` says, when it matters); throws ScoringInputError (with the line) when it is unusable. */
export function parseGoldUpload(task: TaskName, body: unknown, context?: UploadContext): ParsedGold {
  const parsed = familyOf(task).scoring.parseGold(body, context);
  return { ...parsed, gold: { task, gold: parsed.gold } };
}

/** Parses an offline run as uploaded (tab-separated text, or JSON text or object). */
export function parseRunUpload(
  task: TaskName,
  body: unknown,
  columns: ColumnLayout,
  context?: UploadContext,
): { run: RunData; warnings: string[] } {
  const { run, warnings } = familyOf(task).scoring.parseRun(body, columns, context);
  return { run: { task, run }, warnings };
}

/** The organiser ids the gold standard holds documents for. */
export function goldDocuments(gold: Gold): Iterable<string> {
  return familyOf(gold.task).scoring.goldDocuments(gold.gold);
}

/** Whether the task's uploads are tab-separated text (else JSON). */
export const uploadsText = (task: TaskName): boolean => familyOf(task).scoring.upload === 'tsv';

/** Stored bodies are text; JSON uploads were stored as JSON text. */
export function storedBody(task: TaskName, body: unknown): string {
  return uploadsText(task) ? (body as string) : JSON.stringify(body);
}

export function loadStoredBody(task: TaskName, text: string): unknown {
  return uploadsText(task) ? text : JSON.parse(text);
}
