// Schemas shared by several routes (TypeBox, i.e. JSON Schema: validated by fastify and
// published in the OpenAPI description).
import { Type, type TProperties, type TSchema } from 'typebox';
import { TASK_NAMES } from '../tasks/names.ts';
import { ERROR_CODES, type ErrorCode } from './error-catalogue.ts';

const TaskNameSchema = Type.Union(TASK_NAMES.map((t) => Type.Literal(t)));
export const TaskListSchema = Type.Array(TaskNameSchema, { minItems: 1, uniqueItems: true });

/** Every error answer (http/error-handler.ts); the codes are the catalogue's (docs/api-errors.md). */
const ErrorSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.Unsafe<ErrorCode>({ type: 'string', enum: ERROR_CODES, description: 'one of the codes of docs/api-errors.md' }),
      message: Type.String({ description: 'what failed and what to do, for people' }),
      details: Type.Optional(
        Type.Unknown({ description: 'what the code needs besides the message (validation errors, conflicts, limits)' }),
      ),
    }),
  },
  { description: 'an error; the code fixes the status' },
);

// Response schemas. fastify writes answers through them and leaves out any property a
// schema does not name, so answers are described as open objects: the fields named are
// typed and documented, any others pass through as they are. Fields that may be null or
// hold dates are described, not typed, so they are written exactly as before.

/** An object answer: the named fields described, others passed through. */
export const Open = <P extends TProperties>(properties: P, description?: string) =>
  Type.Object(properties, { additionalProperties: true, ...(description === undefined ? {} : { description }) });
/** A field written as it is (JSON.stringify): nullable values, dates, nested records. */
export const Described = (description: string) => Type.Unknown({ description });
/** A list of open objects. */
export const ListOf = <P extends TProperties>(properties: P, description?: string) =>
  Type.Array(Open(properties), description === undefined ? {} : { description });
/** 204: no body. */
export const NoContent = Type.Unsafe<void>({ description: 'done; no body' });

/**
 * An answer encoded once and kept (a cached status or article): fastify sends a Buffer as
 * it is, so the route's schema documents it without rewriting it.
 */
export const preEncoded = <T>(json: Buffer): T => json as unknown as T;

/** A body of another media type than JSON (TSV, XML, HTML, Prometheus text). */
export const TextBody = (mediaType: string, description: string) => ({ description, content: { [mediaType]: { schema: Type.String() } } });

/** A route's responses: its successes, and the error shape for every 4xx and 5xx. */
type MediaTypes = { description: string; content: Record<string, { schema: TSchema }> };

export function responses<S extends Record<number, TSchema | MediaTypes>>(
  success: S,
): S & { '4xx': typeof ErrorSchema; '5xx': typeof ErrorSchema } {
  return { ...success, '4xx': ErrorSchema, '5xx': ErrorSchema };
}

export const SlugParams = Type.Object({ slug: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$' }) });
/**
 * A challenge's `:slug` and one of its `:task`s. A name no task family has fails here, and
 * the error handler answers it as unknown_task, as the challenge lookup (challenges/lookup.ts)
 * answers a task the challenge does not run.
 */
export const TaskParams = Type.Object({ slug: SlugParams.properties.slug, task: TaskNameSchema });

/** The largest id of a row: ids are PostgreSQL `integer` (serial) columns. */
const MAX_ROW_ID = 2_147_483_647;

/**
 * The schema keyword that marks a numeric id in a path or query string, naming what it
 * identifies. An id written correctly but past MAX_ROW_ID names nothing, so the request
 * gets the same 404 as any id without a row (http/error-handler.ts), instead of reaching
 * the database, which refuses such a number.
 */
export const ROW_ID_KEYWORD = 'x-row-id';

const fitsRowId = (digits: string): boolean => digits.length < 10 || (digits.length === 10 && digits <= String(MAX_ROW_ID));

/** The ajv keyword behind ROW_ID_KEYWORD: passes anything but digits (the pattern judges those), refuses digits out of range. */
export const rowIdKeyword = {
  keyword: ROW_ID_KEYWORD,
  type: 'string',
  schemaType: 'string',
  errors: true,
  validate: function rowIdInRange(what: string, data: string): boolean {
    if (!/^[0-9]+$/.test(data) || fitsRowId(data)) return true;
    (rowIdInRange as unknown as { errors: object[] }).errors = [
      { keyword: ROW_ID_KEYWORD, message: `${what} ${data} not found`, params: { what } },
    ];
    return false;
  },
} as const;

/** A numeric id as it travels in paths and query strings (bodies are never type-coerced, so paths are not either). */
export const rowId = (what: string) =>
  Type.String({ pattern: '^[1-9][0-9]*$', description: `the ${what} id (a positive integer)`, [ROW_ID_KEYWORD]: what });
/** An id in a JSON body: a number, in range (out of range is a bad request there, not a missing page). */
export const RowIdInteger = Type.Integer({ minimum: 1, maximum: MAX_ROW_ID });

export const ServerId = rowId('annotation server');
export const ServerIdParams = Type.Object({ id: ServerId });
