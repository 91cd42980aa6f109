// A process that owns a private redis-server, as `npm start` does when no Redis answers:
// started by the launcher tests, which kill it (SIGKILL included) and look at what is left.
// Prints one JSON line when Redis answers: {url, pid, supervisorPid}; on a failed start,
// {error} and exit code 1.
import { startPrivateRedis } from '../../src/queue/redis-launcher.ts';
import { createLogger } from '../../src/log.ts';
import { loadConfig } from '../../src/config.ts';

const dataDir = process.argv[2];
if (!dataDir) throw new Error('usage: redis-owner.ts DATA_DIR');
try {
  const redis = await startPrivateRedis(dataDir, createLogger(loadConfig({}, { logLevel: 'silent' })));
  process.stdout.write(`${JSON.stringify({ url: redis.url, pid: process.pid, supervisorPid: redis.supervisorPid })}\n`);
  process.once('SIGTERM', () => void redis.stop().then(() => process.exit(0)));
  setInterval(() => {}, 1 << 30);
} catch (err) {
  process.stdout.write(`${JSON.stringify({ error: (err as Error).message })}\n`);
  process.exit(1);
}
