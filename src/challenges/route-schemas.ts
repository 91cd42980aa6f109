// The schemas of the challenges' routes (routes.ts): what each route takes and answers, as
// fastify validates it and /openapi.json publishes it. One constant per route, named for
// what the route does, holds its whole schema; the bodies and answers they share come first.
import { Type } from 'typebox';
import { Described, ListOf, Open, responses, SlugParams, TaskListSchema } from '../http/schemas.ts';

const Settings = {
  timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400, description: 'Deadline of one attempt (default 600).' })),
  maxAttempts: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, description: 'Tries per article and server (default 3).' })),
  retryDelaySeconds: Type.Optional(
    Type.Number({ minimum: 0, maximum: 600, description: 'Back-off before the 2nd try; doubles, capped at 10 minutes (default 30).' }),
  ),
  serversPerTeam: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  mentionTypes: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 200, uniqueItems: true })),
  relationTypes: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 200,
      uniqueItems: true,
      description: "REL: the relation types servers may answer (empty: DrugProt's 13, INDIRECT-DOWNREGULATOR … PART-OF)",
    }),
  ),
  relationArguments: Type.Optional(
    Type.Object(
      {
        arg1: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50, uniqueItems: true })),
        arg2: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50, uniqueItems: true })),
      },
      {
        additionalProperties: false,
        description:
          'REL: the given entity types each argument may have, e.g. {"arg1": ["CHEMICAL"], "arg2": ["GENE-Y", "GENE-N"]} (absent: any)',
      },
    ),
  ),
  topicLabels: Type.Optional(
    // No comma, semicolon or TAB: the topic files separate labels with them.
    Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: '^[^,;\\t]+$' }), {
      maxItems: 200,
      uniqueItems: true,
      description: "TOPIC: the labels servers may answer, gold standards and runs hold (empty: LitCovid's seven, Treatment … Case Report)",
    }),
  ),
  mentionNamespaces: Type.Optional(
    Type.Record(
      Type.String({ minLength: 1, maxLength: 100 }),
      Type.Array(Type.String({ minLength: 1, maxLength: 50, pattern: '^[^\\s:|,;]+$' }), { minItems: 1, maxItems: 20, uniqueItems: true }),
      {
        maxProperties: 100,
        description:
          'MENTION: the namespaces each entity type\'s concept ids may have, e.g. {"Chemical": ["MESH"], "Disease": ["MESH", "OMIM"], "Gene": ["NCBIGene"]}; "*" for the other types (absent: any well-formed NS:accession)',
      },
    ),
  ),
  conceptRelationTypes: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 100, pattern: '^[^\\t|]+$' }), {
      maxItems: 200,
      uniqueItems: true,
      description:
        "CREL: the relation types between concepts servers may answer (empty: BioRED's eight, Association … Drug_Interaction, and BC5CDR's CID)",
    }),
  ),
};

const CreateBody = Type.Object(
  { slug: SlugParams.properties.slug, name: Type.String({ minLength: 1, maxLength: 200 }), tasks: TaskListSchema, ...Settings },
  { additionalProperties: false },
);

const PatchBody = Type.Object(
  {
    phase: Type.Optional(
      Type.Union([Type.Literal('setup'), Type.Literal('test'), Type.Literal('closed'), Type.Literal('post')], {
        description: 'post: the post-challenge phase, after the close (teams register, run and upload again; the official boards are kept)',
      }),
    ),
    reopen: Type.Optional(
      Type.Boolean({
        description: 'true to move a closed (or post-challenge) challenge back to setup or test (a closed challenge is frozen until then)',
      }),
    ),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    leaderboardPublished: Type.Optional(
      Type.Boolean({
        description:
          'true: everyone may read the leaderboards, without a token (only once the challenge is closed; reopening withdraws it)',
      }),
    ),
    ...Settings,
  },
  { additionalProperties: false },
);

/** A challenge as the API shows it (challengeView). */
const ChallengeAnswer = Open({
  id: Type.Integer(),
  slug: Type.String(),
  name: Type.String(),
  tasks: Type.Array(Type.String()),
  phase: Type.String({ description: 'setup, test, closed or post' }),
  timeoutSeconds: Type.Number(),
  maxAttempts: Type.Integer(),
  retryDelaySeconds: Type.Number(),
  serversPerTeam: Type.Integer(),
  mentionTypes: Type.Array(Type.String()),
  relationTypes: Type.Array(Type.String()),
  relationArguments: Open({ arg1: Type.Optional(Type.Array(Type.String())), arg2: Type.Optional(Type.Array(Type.String())) }),
  topicLabels: Type.Array(Type.String()),
  mentionNamespaces: Type.Record(Type.String(), Type.Array(Type.String())),
  conceptRelationTypes: Type.Array(Type.String()),
  createdAt: Described('when it was created (ISO 8601)'),
  phaseChangedAt: Described('the latest phase change (ISO 8601), or null'),
  phaseChangedBy: Described('who made the latest phase change, or null'),
  leaderboardPublished: Type.Boolean({ description: 'the leaderboards are shown to everyone (set by the organiser once closed)' }),
  officialClosedAt: Described('the close the official boards are of (ISO 8601), or null before a close and after a reopening'),
  postOpenedAt: Described('when the post-challenge phase first opened after that close (ISO 8601), or null'),
  counts: Open({
    articles: Type.Integer(),
    servers: Type.Integer(),
    teams: Type.Integer(),
    scored: Type.Optional(Type.Integer({ description: 'organiser only: the articles the leaderboards score' })),
    background: Type.Optional(
      Type.Integer({ description: 'organiser only: the articles sent to every server alike but not scored (background)' }),
    ),
  }),
});
const ChallengeDetail = Open({
  ...ChallengeAnswer.properties,
  phaseHistory: ListOf({
    from: Type.String(),
    to: Type.String(),
    by: Type.String(),
    address: Described('the address the change came from, or null'),
    at: Described('ISO 8601'),
  }),
});
const ChangedChallenge = Open({
  ...ChallengeDetail.properties,
  notice: Type.Optional(Type.String({ description: 'with 202: what was left for later' })),
  publicationWithdrawn: Type.Optional(
    Type.Boolean({ description: "true when this change (reopening) withdrew the leaderboards' publication: publish again once closed" }),
  ),
  officialBoards: Type.Optional(
    Open(
      {
        taken: Type.Array(Type.String(), { description: 'the tasks whose official board was stored' }),
        withoutGold: Type.Array(Type.String(), {
          description: 'the tasks without a gold standard: their board is taken when the gold is loaded while the challenge stays closed',
        }),
      },
      'a close, or the post phase opening: the official boards taken',
    ),
  ),
});

const TAGS = ['challenges'];

export const CreateChallenge = {
  tags: TAGS,
  summary: 'Create a challenge (organiser)',
  body: CreateBody,
  response: responses({ 201: ChallengeAnswer }),
};

export const ListChallenges = { tags: TAGS, summary: 'List challenges', response: responses({ 200: Type.Array(ChallengeAnswer) }) };

export const ChallengeBySlug = {
  tags: TAGS,
  summary: 'A challenge with its phase and counts',
  params: SlugParams,
  response: responses({ 200: ChallengeDetail }),
};

export const ChangeChallenge = {
  tags: TAGS,
  summary:
    'Change the phase or settings (organiser); a closed challenge goes on to "post" (the post-challenge phase) or back to setup or test with "reopen": true; a close stores the official boards; {"leaderboardPublished": true} once closed shows its leaderboards to everyone. 202 when Redis is down: the change is stored and reaches the queues once it answers',
  params: SlugParams,
  body: PatchBody,
  response: responses({ 200: ChangedChallenge, 202: ChangedChallenge }),
};
