// A restore makes a new installation. The installation id (migration 006) is kept in the
// database, and the Redis key prefix comes from it: a copy keeping its original's id would,
// started on the original's Redis, take the original's jobs and answer them into the copy.
// So the step that finishes a restore draws a new id (renewInstallationId, in
// src/db/settings-repository.ts), and the copy's unsettled work is queued again under its own
// prefix by the reconciler's first (full) pass, from the database. This says so.
import type { InstallationRenewal } from '../db/settings-repository.ts';
import type { Logger } from '../log.ts';
import { installationPrefix } from '../queue/prefix.ts';

/**
 * Says which id the restored copy had and has now, and that its Redis keys are its own; the
 * original's keys are named so an organiser replacing a dead original can remove them.
 * With METASERVER_QUEUE_PREFIX set the prefix is the operator's, and the copy would share it.
 */
export function reportNewInstallation(log: Logger, restored: InstallationRenewal, configuredPrefix: string): void {
  const was = installationPrefix(restored.before);
  const now = installationPrefix(restored.after);
  log.info(
    { installation: restored.after, previousInstallation: restored.before, queuePrefix: now, previousQueuePrefix: was },
    `the restored copy is a new installation: its id is ${restored.after} (the backup's was ${restored.before}), ` +
      `with Redis keys of its own (prefix ${now}; the original's: ${was}); ` +
      'its unsettled work is queued again under them when it starts',
  );
  log.info(
    { previousQueuePrefix: was },
    `if this copy replaces an original that is gone for good, the original's keys are left in its Redis; ` +
      `remove them if wanted: redis-cli --scan --pattern '${was}:*' | xargs -r redis-cli unlink`,
  );
  if (configuredPrefix)
    log.warn(
      { queuePrefix: configuredPrefix },
      `METASERVER_QUEUE_PREFIX is set (${configuredPrefix}): the Redis prefix is that setting, not the installation's; ` +
        "if the original still runs on the same Redis, give the copy another METASERVER_QUEUE_PREFIX, or it takes the original's jobs",
    );
}
