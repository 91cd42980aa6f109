// Schema validation errors written for people. Ajv says `body/slug must match pattern
// "^[a-z0-9][a-z0-9-]{0,62}$"`; a person filling in a form needs "the slug may hold only
// lower-case letters, digits and hyphens…". The fields the web forms send get their rule
// in words; the usual keywords (empty, missing, unknown field, too small…) get a sentence;
// anything else (bounds of numbers, say) keeps Ajv's wording. `details` keeps Ajv's errors for programs.
import type { FastifySchemaValidationError } from 'fastify';

/** The rule of a field whose pattern a person cannot be expected to read. */
const PATTERN_RULES: Record<string, string> = {
  slug: 'the slug may hold only lower-case letters (a–z), digits and hyphens, must start with a letter or digit and be at most 63 characters long, e.g. "bc2-5"',
  id: 'an article id may not contain spaces or "/"',
  method: 'the XML-RPC method name is letters, digits, "_", "." and ":" and starts with a letter or "_", e.g. "Annotator.getAnnotation"',
  name: 'a name needs at least one character that is not a space',
  sourcedb: 'sourcedb may not contain spaces',
  limit: 'limit is a whole number from 1 to 1000',
  offset: 'offset is a whole number, 0 or more',
};

/** `body/articles/0/id` → `articles[0].id` (a person reads the field, not the JSON pointer). */
function fieldName(context: string | undefined, instancePath: string, missing?: string): string {
  const parts = instancePath.split('/').filter(Boolean);
  if (missing) parts.push(missing);
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  if (out) return out;
  return context === 'querystring' ? 'the query string' : context === 'params' ? 'the URL' : 'the request body';
}

function sentence(context: string | undefined, v: FastifySchemaValidationError): string {
  const params = v.params;
  const field = fieldName(context, v.instancePath, v.keyword === 'required' ? String(params.missingProperty) : undefined);
  const last =
    field
      .split(/[.[\]]/)
      .filter(Boolean)
      .pop() ?? '';
  switch (v.keyword) {
    case 'pattern':
      return `${field}: ${PATTERN_RULES[last] ?? `${v.message ?? 'does not have the expected form'}`}`;
    case 'minLength':
      return params.limit === 1 ? `${field} is empty; fill it in` : `${field} must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `${field} is too long: at most ${String(params.limit)} characters`;
    case 'required':
      return `${field} is missing; it is required`;
    case 'additionalProperties':
      return `${fieldName(context, v.instancePath, String(params.additionalProperty))} is not a field of this request; leave it out`;
    case 'minItems':
      return params.limit === 1 ? `${field} is empty; give at least one` : `${field} needs at least ${String(params.limit)} entries`;
    case 'type':
      return `${field} must be ${params.type === 'integer' ? 'a whole number' : `a ${String(params.type)}`}`;
    default:
      return `${context ?? 'request'}${v.instancePath} ${v.message ?? 'is not valid'}`;
  }
}

/** One message for all of a request's validation errors, each in words. */
export function validationMessage(context: string | undefined, errors: readonly FastifySchemaValidationError[]): string {
  // An empty string also fails the field's pattern: "is empty" says it all.
  const empty = new Set(errors.filter((v) => v.keyword === 'minLength').map((v) => v.instancePath));
  const shown = errors.filter((v) => !(v.keyword === 'pattern' && empty.has(v.instancePath)));
  // A union reports each branch it tried; say each distinct sentence once.
  return [...new Set(shown.map((v) => sentence(context, v)))].join('; ');
}
