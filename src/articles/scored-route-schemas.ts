// The schemas of the organiser's marking routes (scored-routes.ts): which articles of a
// challenge are scored and which are background. Organiser only; nothing here is shown to a
// team or a server.
import { Type } from 'typebox';
import { Open, responses, SlugParams } from '../http/schemas.ts';

const TAGS = ['articles'];

const OrganiserId = Type.String({ minLength: 1, maxLength: 200, pattern: '^[^\\s/]+$' });
/** A list of organiser ids: up to a million, a whole large-scale corpus named at once. */
const Ids = (description: string) => Type.Array(OrganiserId, { maxItems: 1_000_000, description });

const Counts = {
  challenge: Type.String(),
  articles: Type.Integer({ description: 'articles of the challenge' }),
  scored: Type.Integer({ description: 'articles the leaderboards score' }),
  background: Type.Integer({ description: 'articles sent to every server alike but left out of the leaderboards' }),
};

const CountsAnswer = Open({
  ...Counts,
  ids: Type.Optional(Type.Array(Type.String(), { description: 'with ?list=: the organiser ids of that kind, in id order' })),
});
const ChangedAnswer = Open({ ...Counts, changed: Type.Integer({ description: 'articles this request moved from one kind to the other' }) });

export const ScoredArticles = {
  tags: TAGS,
  summary: "How many of a challenge's articles are scored and how many are background; ?list=scored|background also names them (organiser)",
  params: SlugParams,
  querystring: Type.Object(
    { list: Type.Optional(Type.Union([Type.Literal('scored'), Type.Literal('background')])) },
    { additionalProperties: false },
  ),
  response: responses({ 200: CountsAnswer }),
};

export const PutScoredArticles = {
  tags: TAGS,
  summary:
    'Set the scored articles of a challenge (organiser): the ids named are scored, every other article is background. An unknown id refuses the whole list; refused once the leaderboards are published',
  params: SlugParams,
  body: Type.Object({ scored: Ids('the organiser ids of the articles to score') }, { additionalProperties: false }),
  response: responses({ 200: ChangedAnswer }),
};

export const PatchScoredArticles = {
  tags: TAGS,
  summary:
    'Mark some articles of a challenge as scored or as background (organiser); the others stay as they are. An unknown id, or an id in both lists, refuses the whole change; refused once the leaderboards are published',
  params: SlugParams,
  body: Type.Object(
    {
      scored: Type.Optional(Ids('organiser ids to mark as scored')),
      background: Type.Optional(Ids('organiser ids to mark as background')),
    },
    { additionalProperties: false },
  ),
  response: responses({ 200: ChangedAnswer }),
};
