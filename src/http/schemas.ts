// Schemas shared by several routes (TypeBox, i.e. JSON Schema: validated by fastify and
// published in the OpenAPI description).
import { Type } from 'typebox';
import { TASK_NAMES } from '../families/registry.ts';

export const TaskNameSchema = Type.Union(TASK_NAMES.map((t) => Type.Literal(t)));
export const TaskListSchema = Type.Array(TaskNameSchema, { minItems: 1, uniqueItems: true });

export const ErrorSchema = Type.Object({
  error: Type.Object({ code: Type.String(), message: Type.String(), details: Type.Optional(Type.Unknown()) }),
});

export const SlugParams = Type.Object({ slug: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$' }) });
/** Numeric ids travel as strings in paths; bodies are never type-coerced, so paths are not either. */
export const NumericId = Type.String({ pattern: '^[1-9][0-9]{0,9}$', description: 'a positive integer id' });
export const IdParams = Type.Object({ id: NumericId });
