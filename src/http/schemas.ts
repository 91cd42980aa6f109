// Schemas shared by several routes (TypeBox, i.e. JSON Schema: validated by fastify and
// published in the OpenAPI description).
import { Type } from 'typebox';
import { TASK_NAMES } from '../families/registry.ts';

export const TaskNameSchema = Type.Union(TASK_NAMES.map((t) => Type.Literal(t)));
export const TaskListSchema = Type.Array(TaskNameSchema, { minItems: 1, uniqueItems: true });

export const SlugParams = Type.Object({ slug: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$' }) });

/** The largest id of a row: ids are PostgreSQL `integer` (serial) columns. */
export const MAX_ROW_ID = 2_147_483_647;

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
    (rowIdInRange as unknown as { errors: object[] }).errors = [{ keyword: ROW_ID_KEYWORD, message: `${what} ${data} not found`, params: { what } }];
    return false;
  },
} as const;

/** A numeric id as it travels in paths and query strings (bodies are never type-coerced, so paths are not either). */
export const rowId = (what: string) => Type.String({ pattern: '^[1-9][0-9]*$', description: `the ${what} id (a positive integer)`, [ROW_ID_KEYWORD]: what });
/** An id in a JSON body: a number, in range (out of range is a bad request there, not a missing page). */
export const RowIdInteger = Type.Integer({ minimum: 1, maximum: MAX_ROW_ID });

export const ServerId = rowId('annotation server');
export const ServerIdParams = Type.Object({ id: ServerId });
