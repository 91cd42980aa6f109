// Every error code the API answers with, its HTTP status and what it means: the one table
// throw sites name their errors from (ApiError takes a code of this table, never free
// text), and the source of docs/api-errors.md (a test keeps the two equal). Clients may
// rely on a code; the message beside it is for people and may change.

export interface ErrorEntry {
  readonly status: number;
  readonly meaning: string;
}

export const ERROR_CATALOGUE = {
  // 400: the request is wrong; the message names what and how to fix it.
  bad_request: {
    status: 400,
    meaning:
      'The request is not acceptable as sent (a field, a combination of options, an id that does not fit); the message names what to change.',
  },
  invalid_request: {
    status: 400,
    meaning:
      'A path parameter, query parameter or body field does not match the schema published in /openapi.json; `details` lists each mismatch.',
  },
  invalid_json: { status: 400, meaning: 'The body is empty or not valid JSON.' },
  invalid_utf8: { status: 400, meaning: 'The body is not valid UTF-8.' },
  invalid_text: {
    status: 400,
    meaning: 'A string holds a character that cannot be stored (NUL, a lone surrogate); the message names the field.',
  },
  invalid_input: {
    status: 400,
    meaning: 'An uploaded gold standard, map or run file could not be read; the message names the line; nothing was stored.',
  },
  invalid_jats: { status: 400, meaning: 'A JATS/NXML article could not be read.' },
  invalid_corpus: {
    status: 400,
    meaning:
      'A BioC or PubTator corpus, or documents of it, could not be read or loaded; `details` lists each file, document and reason; nothing was stored.',
  },
  unknown_task: { status: 400, meaning: "The task is not one of the challenge's (or not one the route handles)." },
  bad_url: { status: 400, meaning: 'The URL has a malformed %-escape or one that does not encode UTF-8.' },
  bad_content_length: { status: 400, meaning: 'The Content-Length header does not match the body.' },
  bad_http: { status: 400, meaning: 'The request is not valid HTTP/1.1; the connection is closed.' },
  repeated_parameter: {
    status: 400,
    meaning:
      'A query parameter is given more than once (`?all=1&all=0`); every query parameter of this API takes one value (but a list its route declares, sent by repeating it); the message names it.',
  },
  // 401/403: who is asking.
  unauthorized: { status: 401, meaning: 'The route needs a token and none was sent, or the token is not valid.' },
  forbidden: {
    status: 403,
    meaning:
      "The token is valid but its holder may not do this (a team on an organiser route, the organiser on a team route, a team on another team's server).",
  },
  not_published: {
    status: 403,
    meaning:
      'Scores and ensembles are shown to teams once the challenge is closed, and to everyone once the organiser publishes its leaderboards.',
  },
  // 404: nothing there (or nothing this caller may see: another team's server answers the same).
  not_found: { status: 404, meaning: 'No such route, or no such thing that this caller may see.' },
  no_gold: { status: 404, meaning: 'The task has no gold standard loaded yet.' },
  no_official_board: {
    status: 404,
    meaning:
      'The task has no official board: the challenge has not closed, or no gold standard was loaded for the task before its post-challenge phase opened.',
  },
  // 408/409/413/414/415/422/429/431: the request cannot be carried out as things stand.
  request_timeout: { status: 408, meaning: 'The request was not received in time; the connection is closed.' },
  conflict: {
    status: 409,
    meaning: 'The request clashes with what is stored (a name or id taken, a limit reached, a server still active); nothing was changed.',
  },
  not_closed: {
    status: 409,
    meaning: 'The change needs a closed challenge (publishing its leaderboards, opening its post-challenge phase); close it first.',
  },
  closed: { status: 409, meaning: 'The challenge is closed: its servers, answers and runs are frozen until the organiser reopens it.' },
  run_limit: { status: 409, meaning: 'The team has uploaded the most offline runs allowed for this task.' },
  cannot_train: { status: 409, meaning: 'An ensemble cannot be trained from what is stored yet (too few answers or gold documents).' },
  lease_gone: {
    status: 409,
    meaning:
      'The lease is unknown, already answered, given back or past its deadline (then its attempt counts as a timeout); nothing was stored: take a new lease.',
  },
  no_answers: { status: 409, meaning: "None of the ensemble's servers has an answer to the article that the caller may see." },
  body_too_large: { status: 413, meaning: 'The body is larger than this route accepts.' },
  article_too_large: { status: 413, meaning: 'An article is larger than the configured maximum.' },
  parameter_too_long: { status: 414, meaning: 'A part of the URL path is longer than any name or id of this API.' },
  unsupported_media_type: { status: 415, meaning: 'The route does not take a body of this Content-Type.' },
  answer_refused: {
    status: 422,
    meaning:
      "The answer to a lease was read and judged but not stored (invalid, unreadable, or the server's own error); `details` holds the attempt, whether it was the last, and the validation errors.",
  },
  cannot_export: { status: 422, meaning: 'The stored answers cannot be written in the export format asked for.' },
  rate_limited: {
    status: 429,
    meaning: 'Too many requests of this kind from this client in the last minute; Retry-After says when to try again.',
  },
  too_many_pending: {
    status: 429,
    meaning: 'The client has the most on-demand articles waiting that one client may have; Retry-After says when to try again.',
  },
  too_many_polls: {
    status: 429,
    meaning:
      "The pull server's or the team's lease requests waiting at once (long-polls) are at their bound; the message names which; Retry-After says when to try again.",
  },
  headers_too_large: { status: 431, meaning: 'The request headers are larger than the server accepts.' },
  // 5xx: the server's side.
  internal: { status: 500, meaning: 'An unexpected error; the message names the request id the operator finds in the log.' },
  busy: { status: 503, meaning: 'The server holds the most on-demand articles waiting it takes; Retry-After says when to try again.' },
  shutting_down: {
    status: 503,
    meaning: 'The meta-server is stopping (a restart or an upgrade); Retry-After says when to try again.',
  },
  redis_unavailable: { status: 503, meaning: 'Redis (the queue store) does not answer; Retry-After says when to try again.' },
  database_unavailable: { status: 503, meaning: 'The database does not answer; Retry-After says when to try again.' },
  database_disk_full: {
    status: 507,
    meaning:
      "The database's disk is full (or below the free space PGlite keeps in reserve), so the change was not stored; reads still work. The operator frees space in the data directory or grows the volume; work resumes by itself.",
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

export const statusOf = (code: ErrorCode): number => ERROR_CATALOGUE[code].status;

/** docs/api-errors.md, as it must read (test/api/error-catalogue.test.ts compares). */
export function errorCatalogueMarkdown(): string {
  const rows = ERROR_CODES.map(
    (code) => `| \`${code}\` | ${ERROR_CATALOGUE[code].status} | ${ERROR_CATALOGUE[code].meaning.replaceAll('|', '\\|')} |`,
  );
  return [
    '# API error codes',
    '',
    'Every error answer of the JSON API has the shape `{"error": {"code", "message", "details"?}}`.',
    'The `code` is one of the table below and always comes with the same HTTP status; clients may',
    'rely on it. The `message` is for people: it says what failed and what to do, and may change.',
    'Answers of 429 and 503 carry a `Retry-After` header.',
    '',
    'This file is generated from `src/http/error-catalogue.ts` (`npx tsx scripts/api-errors-doc.ts`);',
    'a test fails when the two differ.',
    '',
    '| code | status | meaning |',
    '| --- | --- | --- |',
    ...rows,
    '',
  ].join('\n');
}
