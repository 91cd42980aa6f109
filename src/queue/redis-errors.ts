// Kept apart from the Redis launcher so the command line can recognise the error without
// loading ioredis (subcommands such as `metaserver score` never touch Redis).

/** No Redis could be reached or started; the message says how to get one. */
export class RedisUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = this.constructor.name;
  }
}
