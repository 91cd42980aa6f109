// GET /api/challenges/:slug/articles: the articles of a challenge with how far each got,
// for the organiser's articles page. An article's state across the servers it went to:
//   pending  sent to no server yet;
//   running  some server still has it queued or in flight;
//   done     every server answered it;
//   failed   every server finished, and at least one gave up on it.
// Filtered by state in SQL and paged (newest load last, as the queues send them).
import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../app-context.ts';
import { requireAdmin } from '../auth/principal.ts';
import { notFound } from '../http/api-error.ts';
import { SlugParams } from '../http/schemas.ts';

export const ARTICLE_STATES = ['pending', 'running', 'done', 'failed'] as const;
export type ArticleListState = (typeof ARTICLE_STATES)[number];

const Query = Type.Object(
  {
    state: Type.Optional(Type.Union(ARTICLE_STATES.map((s) => Type.Literal(s)))),
    limit: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$|^1000$', description: '1 to 1000 (default 100)' })),
    offset: Type.Optional(Type.String({ pattern: '^[0-9]{1,8}$', description: 'articles to skip (default 0)' })),
  },
  { additionalProperties: false },
);

export interface ArticleListRow {
  id: string;
  organiserId: string | null;
  state: ArticleListState;
  servers: number;
  done: number;
  failed: number;
  bytes: number;
  createdAt: string;
}

const STATE_SQL = `case when count(d.server_id) = 0 then 'pending'
  when count(*) filter (where d.state in ('queued', 'active')) > 0 then 'running'
  when count(*) filter (where d.state = 'failed') > 0 then 'failed'
  else 'done' end`;

export function articleListRoutes(ctx: AppContext): FastifyPluginAsync {
  return async (base) => {
    const app = base.withTypeProvider<TypeBoxTypeProvider>();
    app.get(
      '/challenges/:slug/articles',
      { schema: { tags: ['articles'], summary: 'The articles of a challenge with their state across servers, filtered by state (organiser)', params: SlugParams, querystring: Query } },
      async (request) => {
        requireAdmin(await ctx.auth.principal(request));
        const challenge = await ctx.repos.challenges.bySlug(request.params.slug);
        if (!challenge) throw notFound(`challenge "${request.params.slug}"`);
        const { state } = request.query;
        const limit = Number(request.query.limit ?? 100);
        const offset = Number(request.query.offset ?? 0);
        const rows = await ctx.db.query<{ id: string; organiser_id: string | null; state: ArticleListState; servers: number; done: number; failed: number; bytes: number; created_at: Date; total: number }>(
          `select * , count(*) over ()::int as total from (
             select a.id, a.organiser_id, a.seq, a.created_at, octet_length(a.text)::int as bytes,
                    count(d.server_id)::int as servers,
                    count(*) filter (where d.state = 'done')::int as done,
                    count(*) filter (where d.state = 'failed')::int as failed,
                    ${STATE_SQL} as state
             from articles a left join deliveries d on d.article_id = a.id
             where a.challenge_id = $1
             group by a.id) x
           where $2::text is null or x.state = $2
           order by x.seq limit $3 offset $4`,
          [challenge.id, state ?? null, limit, offset],
        );
        const articles: ArticleListRow[] = rows.map((r) => ({
          id: r.id, organiserId: r.organiser_id, state: r.state, servers: r.servers, done: r.done, failed: r.failed, bytes: r.bytes, createdAt: new Date(r.created_at).toISOString(),
        }));
        return { challenge: challenge.slug, state: state ?? null, total: rows[0]?.total ?? 0, offset, articles };
      },
    );
  };
}
