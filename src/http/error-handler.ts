// Every error answer has the project's shape, {"error": {"code", "message", "details"}},
// whoever raised it: a route (ApiError), schema validation, fastify itself (bad percent-
// encoding, a parameter too long, an unknown content type, a body too large) or Node's HTTP
// parser (a request that is not HTTP at all). Anything else is a 500 that names the
// request id the operator can find in the log — never a stack or a database message. A request
// that arrives while the process stops gets the 503 `shutting_down` in the same shape.
import { shuttingDown } from './unavailable.ts';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isConnectionError, isDiskFull } from '../db/retry.ts';
import { ApiError } from './api-error.ts';
import { statusOf, type ErrorCode } from './error-catalogue.ts';
import { ROW_ID_KEYWORD } from './schemas.ts';
import { DiskFullError, ServiceUnavailableError } from './unavailable.ts';
import { validationMessage } from './validation-messages.ts';

interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

const body = (code: ErrorCode, message: string, details?: unknown): ErrorBody => ({
  error: { code, message, ...(details === undefined ? {} : { details }) },
});

/** fastify's own client errors: our code and a sentence that says what to do. */
const FASTIFY_ERRORS: Record<string, (err: FastifyError, request: FastifyRequest) => [code: ErrorCode, message: string]> = {
  FST_ERR_BAD_URL: (_e, r) => [
    'bad_url',
    `the URL ${JSON.stringify(r.url)} is not valid: a %-escape is malformed or does not encode UTF-8; percent-encode each path part (encodeURIComponent)`,
  ],
  FST_ERR_MAX_PARAM_LENGTH: () => [
    'parameter_too_long',
    'a part of the URL path is longer than any name or id this API has; check the URL',
  ],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (_e, r) => [
    'unsupported_media_type',
    `this route does not take a body of type ${JSON.stringify(r.headers['content-type'] ?? '')}; send application/json (or the type /docs names for this route)`,
  ],
  FST_ERR_CTP_BODY_TOO_LARGE: () => ['body_too_large', 'the request body is larger than this route accepts; send less at a time'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => ['bad_content_length', 'the Content-Length header does not match the body sent'],
  FST_ERR_CTP_EMPTY_JSON_BODY: () => ['invalid_json', 'the request body is empty; send a JSON object'],
  FST_ERR_CTP_INVALID_JSON_BODY: () => ['invalid_json', 'the request body is not valid JSON'],
};

/** Validation errors of an id that is well formed but beyond any row's id: nothing has it (404), see schemas.ts. */
function rowIdNotFound(err: FastifyError): ApiError | null {
  const context = err.validationContext;
  if (context !== 'params' && context !== 'querystring') return null;
  if (!err.validation!.every((v) => v.keyword === ROW_ID_KEYWORD)) return null;
  return new ApiError('not_found', err.validation!.map((v) => v.message).join('; '));
}

/**
 * Validation errors of a `:task` path parameter only (TaskParams in schemas.ts): the task
 * is unknown, the same error as for a task the challenge does not run, with the names allowed.
 */
function unknownTask(err: FastifyError, request: FastifyRequest): ApiError | null {
  if (err.validationContext !== 'params' || !err.validation!.every((v) => v.instancePath === '/task')) return null;
  const allowed = err.validation!.flatMap((v) =>
    v.keyword === 'const' ? [String((v.params as { allowedValue?: unknown }).allowedValue)] : [],
  );
  const task = String((request.params as { task?: unknown }).task);
  return new ApiError(
    'unknown_task',
    `unknown task ${JSON.stringify(task)}${allowed.length > 0 ? `; use one of ${allowed.join(', ')}` : ''}`,
  );
}

function send(reply: FastifyReply, status: number, payload: ErrorBody): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(payload);
}

function errorReply(err: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // The database went away mid-request: a 503 to retry, not an internal error.
  if (isConnectionError(err)) err = new ServiceUnavailableError('database', 5, 'the request could not be carried out');
  // Its disk is full: 507 and what the operator does, not a 500 (the log has the Condition's warning).
  else if (isDiskFull(err)) err = new DiskFullError();
  if (!(err instanceof ApiError) && err.validation) err = rowIdNotFound(err) ?? unknownTask(err, request) ?? err;
  if (err instanceof ApiError) {
    if (err.retryAfterSeconds !== undefined) reply.header('retry-after', String(err.retryAfterSeconds));
    return send(reply, err.statusCode, body(err.code, err.message, err.details));
  }
  if (err.validation) {
    const message = validationMessage(err.validationContext, err.validation);
    return send(reply, statusOf('invalid_request'), body('invalid_request', message, err.validation));
  }
  const status = err.statusCode ?? 500;
  if (status < 500) {
    // fastify's client errors not named in FASTIFY_ERRORS (all of them 400s): bad_request with fastify's words.
    const known = err.code ? FASTIFY_ERRORS[err.code] : undefined;
    const [code, message] = known ? known(err, request) : (['bad_request', err.message] as const);
    return send(reply, statusOf(code), body(code, message));
  }
  request.log.error({ err }, 'request failed');
  return send(
    reply,
    statusOf('internal'),
    body('internal', `internal error; the operator can find it in the logs under request id ${request.id}. Try again later.`),
  );
}

/** Errors fastify raises before a route is found (bad %-escapes, parameters over maxParamLength). */
export function frameworkErrorReply(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void errorReply(err, request, reply);
}

/** Node's HTTP parser refused the request: answer in the same shape, then close. */
export function clientErrorReply(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, message]: [ErrorCode, string] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? ['request_timeout', 'the request was not received in time; send it again']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? ['headers_too_large', 'the request headers are larger than this server accepts; send fewer or shorter headers']
        : ['bad_http', `the request is not valid HTTP/1.1 (${err.code ?? 'parse error'}); check the client`];
  const status = statusOf(code);
  this.log.debug({ err: err.message, code: err.code }, 'client error');
  if (socket.writable) {
    const json = JSON.stringify(body(code, message));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(json)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${json}`,
    );
  }
  socket.destroy(err);
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(errorReply);
  // Requests that arrive while the app closes: our 503 (fastify's own, turned off in app.ts, has another shape).
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (closing) throw shuttingDown(reply);
  });
  app.setNotFoundHandler((request, reply) =>
    send(reply, statusOf('not_found'), body('not_found', `no route ${request.method} ${request.url}; see /docs for the API`)),
  );
}
