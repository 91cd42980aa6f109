// The one error type routes throw. The error handler turns it into
// {"error": {"code", "message", "details"}} with its status; the message is for people.
// The code comes from the catalogue (error-catalogue.ts), which fixes its status.
// A refusal that will pass later (429, 503) says when to try again in a Retry-After header.
import { statusOf, type ErrorCode } from './error-catalogue.ts';

export class ApiError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = this.constructor.name;
    this.statusCode = statusOf(code);
  }
}

export const notFound = (what: string) => new ApiError('not_found', `${what} not found`);
export const badRequest = (message: string, details?: unknown) => new ApiError('bad_request', message, details);
export const conflict = (message: string, details?: unknown) => new ApiError('conflict', message, details);
