// The schemas of the trained ensembles' routes (routes.ts): what each route takes and
// answers, as fastify validates it and /openapi.json publishes it. One constant per route,
// named for what the route does, holds its whole schema; the model's answer comes first.
import { Type } from 'typebox';
import { Described, Open, responses, TaskParams } from '../http/schemas.ts';

const TAGS = ['consensus'];

const TrainBody = Type.Object(
  {
    cutoff: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 1000, description: 'selection and training cutoff per run (top k items); default 10' }),
    ),
    lambda: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1e6, description: 'L2 strength; default 1' })),
    runs: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 1000, uniqueItems: true })),
  },
  { additionalProperties: false },
);

const ModelSummary = Open({
  id: Type.Integer(),
  challenge: Described('the challenge id'),
  task: Type.String(),
  version: Type.Integer(),
  createdAt: Described('ISO 8601'),
  runs: Described('the run names combined'),
  cutoffs: Described('the cutoff of each run'),
  lambda: Type.Number(),
  training: Described('what it was trained on (documents, items) and how well it fits'),
});
const TrainedModel = Open({ ...ModelSummary.properties, model: Described('the whole stored model (weights per run)') });

export const TrainEnsemble = {
  tags: TAGS,
  summary: 'Train a new version of the ensemble from stored answers and the gold (organiser)',
  params: TaskParams,
  body: Type.Optional(TrainBody),
  response: responses({ 201: TrainedModel }),
};

export const EnsembleVersions = {
  tags: TAGS,
  summary: 'The trained ensemble versions of a task',
  params: TaskParams,
  response: responses({ 200: Open({ challenge: Type.String(), task: Type.String(), models: Type.Array(ModelSummary) }) }),
};
