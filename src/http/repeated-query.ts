// One rule for every route: each query parameter of this API takes one value, so a
// parameter given twice (`?all=1&all=0`) is a 400 naming it. Fastify's query-string parser
// turns a repeated key into an array, which no route expects (their schemas say string,
// the pages read strings): left alone, it was a 500 wherever a string method met it.
// Refusing is safer than picking a value: a client that meant both learns that it cannot.
// The one exception is a parameter whose route's schema takes a list (the test-suite
// report's `by=…&by=…`): there repeating is how a list is sent.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.ts';

interface JsonSchemaNode {
  type?: unknown;
  anyOf?: JsonSchemaNode[];
  oneOf?: JsonSchemaNode[];
  properties?: Record<string, JsonSchemaNode>;
}

/** Whether the route's querystring schema lets this parameter be a list. */
function takesList(querystring: unknown, name: string): boolean {
  const property = (querystring as JsonSchemaNode | undefined)?.properties?.[name];
  const isList = (node: JsonSchemaNode | undefined): boolean =>
    node !== undefined && (node.type === 'array' || (node.anyOf ?? node.oneOf ?? []).some(isList));
  return isList(property);
}

/** The first query parameter given more than once (and not a list in the route's schema), with how often, or null. */
function repeatedQueryParameter(query: unknown, querystring?: unknown): { name: string; times: number } | null {
  if (query === null || typeof query !== 'object') return null;
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value) && !takesList(querystring, name)) return { name, times: value.length };
  }
  return null;
}

function repeatedParameterError(name: string, times: number): ApiError {
  return new ApiError(
    'repeated_parameter',
    `the query parameter "${name}" is given ${times} times; each query parameter takes one value, so send it once`,
  );
}

function refuse(request: FastifyRequest): void {
  const repeated = repeatedQueryParameter(request.query, request.routeOptions.schema?.querystring);
  if (repeated) throw repeatedParameterError(repeated.name, repeated.times);
}

/** Before any route's validation (and before the pages read request.query), on every route. */
export function refuseRepeatedQueryParameters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => refuse(request));
}
