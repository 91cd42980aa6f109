// The one error type routes throw. The error handler turns it into
// {"error": {"code", "message", "details"}} with its status; the message is for people.
// A refusal that will pass later (429, 503) says when to try again in a Retry-After header.
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = this.constructor.name;
  }
}

export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} not found`);
export const badRequest = (message: string, details?: unknown) => new ApiError(400, 'bad_request', message, details);
export const conflict = (message: string, details?: unknown) => new ApiError(409, 'conflict', message, details);
