// The schemas of the pull protocol's routes (routes.ts): what each route takes and answers,
// as fastify validates it and /openapi.json publishes it. One constant per route, named for
// what the route does, holds its whole schema; the bodies and answers they share come first.
import { Type } from 'typebox';
import { Described, NoContent, Open, responses, ServerIdParams } from '../http/schemas.ts';
import { LEASE_ID_PATTERN } from './lease-records.ts';

/** The longest a lease request waits for work. */
export const MAX_WAIT_SECONDS = 60;

const LeaseParams = Type.Object({
  lease: Type.String({ pattern: LEASE_ID_PATTERN, description: 'the lease id, as the lease answered it' }),
});
const WaitQuery = Type.Object(
  {
    wait: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,2}(\\.[0-9]{1,3})?$',
        description: `seconds to wait for work before answering 204 (0–${MAX_WAIT_SECONDS}, default 30)`,
      }),
    ),
    keepAlive: Type.Optional(
      Type.Union([Type.Literal('0'), Type.Literal('1')], {
        description:
          '1: the lease lives only while it is renewed (POST /api/servers/:id/leases/renew, within keepAliveSeconds); a lease not renewed is given back, so an agent that is gone frees it within seconds',
      }),
    ),
  },
  { additionalProperties: false },
);
const offerFields = {
  lease: Type.String({ description: 'the lease id: answer, fail or give back the article with it' }),
  deadline: Type.String({ description: 'ISO 8601: an answer after this is refused and the attempt counts as a timeout' }),
  keepAliveSeconds: Type.Optional(
    Type.Number({
      description: 'taken with keepAlive=1: renew the lease within this many seconds (every third of it) or it is given back',
    }),
  ),
  article: Open(
    {
      id: Type.Optional(Type.String({ description: 'the article id (servers registered with sendMetadata)' })),
      text: Type.String(),
      given: Type.Optional(Type.String({ description: 'the given annotations (COREF servers)' })),
      tasks: Type.Array(Type.String(), { description: 'the tasks to answer' }),
    },
    "the JSON protocol's request",
  ),
};
const Offer = Open(offerFields);
const receiptFields = {
  stored: Type.Boolean(),
  outcome: Type.String({ description: 'ok, or why the answer was not stored' }),
  detail: Type.Optional(Type.String()),
  attempt: Type.Integer(),
  final: Type.Boolean({ description: 'no attempt is left: the article is not offered again' }),
  errors: Described('the first validation errors {path, message}'),
  errorCount: Type.Integer(),
  warnings: Described('the first validation warnings {path, message}'),
  warningCount: Type.Integer(),
};
const Receipt = Open(receiptFields);
const AnsweredReceipt = Open({
  ...receiptFields,
  next: Type.Optional(
    Open(
      offerFields,
      "asked with next=1 and the answer stored: the server's next lease (taken with the answered lease's keepAlive), when there was work; work on it as on one taken — absent, take the next lease as usual",
    ),
  ),
});
const NextQuery = Type.Object(
  {
    next: Type.Optional(
      Type.Union([Type.Literal('0'), Type.Literal('1')], {
        description: "1: a stored answer's receipt carries the server's next lease (`next`) when there is work, saving a lease request",
      }),
    ),
  },
  { additionalProperties: false },
);
const FailBody = Type.Object(
  { message: Type.String({ minLength: 1, maxLength: 4000, description: "what went wrong, as the team's server said it" }) },
  { additionalProperties: false },
);
const AnswerBody = Type.Object(
  {},
  { additionalProperties: true, description: 'the JSON protocol\'s answer: an object with the XML-RPC answer\'s keys (or {"error": …})' },
);

const RenewBody = Type.Object(
  {
    leases: Type.Array(Type.String({ pattern: LEASE_ID_PATTERN }), {
      maxItems: 1000,
      description: 'the ids of the leases the agent holds',
    }),
    localServer: Type.Optional(
      Type.Object(
        {
          state: Type.Union([Type.Literal('up'), Type.Literal('down')], { description: "whether the team's own server answers the agent" }),
          detail: Type.Optional(Type.String({ maxLength: 1000, description: 'why it is down, as the agent saw it' })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
const Renewed = Open({
  held: Type.Array(Type.String(), {
    description: 'the leases still held: any other was answered, given back or expired — stop working on it',
  }),
});

const TAGS = ['pull'];

export const TakeLease = {
  tags: TAGS,
  summary: 'Take an article on lease for a pull server (its agent); waits up to ?wait seconds, 204 when there is no work',
  params: ServerIdParams,
  querystring: WaitQuery,
  response: responses({ 200: Offer, 204: NoContent }),
};

export const RenewLeases = {
  tags: TAGS,
  summary:
    "Keep the agent's leases taken with keepAlive=1 alive, and say whether the team's own server answers; answers which leases are still held",
  params: ServerIdParams,
  body: RenewBody,
  response: responses({ 200: Renewed }),
};

export const AnswerLease = {
  tags: TAGS,
  summary: "Answer a leased article with the JSON protocol's answer; judged and stored exactly once (422 with the errors when not valid)",
  params: LeaseParams,
  querystring: NextQuery,
  body: AnswerBody,
  response: responses({ 200: AnsweredReceipt }),
};

export const FailLease = {
  tags: TAGS,
  summary: "Report that the team's server failed on a leased article: recorded as a fault attempt",
  params: LeaseParams,
  body: FailBody,
  response: responses({ 200: Receipt }),
};

export const ReleaseLease = {
  tags: TAGS,
  summary:
    'Give a leased article back (the agent is stopping, or its own server does not answer): not a failed attempt; it is offered again at once',
  params: LeaseParams,
  response: responses({ 204: NoContent }),
};
