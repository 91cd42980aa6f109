// Starts one private redis-server on a free loopback port for the whole test run, so the
// tests never touch a Redis someone else uses. Each test file still gets its own queue
// prefix, so files running side by side do not see each other's jobs.
import type { TestProject } from 'vitest/node';
import { startPrivateRedis, type PrivateRedis } from './private-redis.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

let redis: PrivateRedis | undefined;

export async function setup(project: TestProject): Promise<void> {
  redis = await startPrivateRedis();
  project.provide('redisUrl', redis.url);
}

export async function teardown(): Promise<void> {
  await redis?.stop();
}
