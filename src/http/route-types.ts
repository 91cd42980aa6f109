// The types that let a route's handler live apart from the plugin that registers it, still
// typed by the route's schema: its params, query and body as the schema validates them,
// and its answers as the schema's responses describe them (the TypeBox type provider,
// exactly as for a handler written inline).
import type {
  ContextConfigDefault,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

/** A handler of the route whose schema is S: `handler: RouteHandler<typeof Schema>`. */
export type RouteHandler<S extends FastifySchema> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  S,
  TypeBoxTypeProvider
>;

/** The request a handler of the route whose schema is S receives. */
export type RouteRequest<S extends FastifySchema> = Parameters<RouteHandler<S>>[0];
/** The reply a handler of the route whose schema is S answers through. */
export type RouteReply<S extends FastifySchema> = Parameters<RouteHandler<S>>[1];

/** A handler of a route with no schema (the pages), whose request reads the params and query string G declares. */
export type DeclaredRouteHandler<G extends RouteGenericInterface = RouteGenericInterface> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  G
>;
