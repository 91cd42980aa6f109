import type { AttemptOutcome } from './dispatch-store.ts';

/** Thrown from a job so BullMQ reissues it with back-off; the attempt is already recorded. */
export class AttemptFailedError extends Error {
  constructor(
    readonly kind: AttemptOutcome,
    detail: string,
  ) {
    super(`${kind}: ${detail}`);
    this.name = this.constructor.name;
  }
}
