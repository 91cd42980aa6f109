// Running setup checks, one at a time per server across every API process: the check is
// claimed in the database (running-check-repository.ts) before the server is called and
// released once its result is stored, so each process's status page shows it and none
// calls the server a second time meanwhile. A second inline check is refused (409: its
// caller wants a result, and that is the other check's); a second background check joins
// the running one (its answer, "the check runs; the status shows its result", is true).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Config } from '../../config.ts';
import type { ChallengeRepository } from '../../challenges/repository.ts';
import type { AnswerReader } from '../../dispatch/answer-reader.ts';
import { conflict } from '../../http/api-error.ts';
import { checkServer } from './call-server.ts';
import { isPulled } from '../../dispatch/annotators/registry.ts';
import { waitingForAgentCheck } from './agent-wait.ts';
import type { AnnotationServer, ServerCheck, ServerRepository } from '../repository.ts';
import type { RunningCheck, RunningCheckRepository } from './running-check-repository.ts';

interface Log {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What the setup checks need of the composition root, named part by part (not as AppContext, which builds them). */
export interface SetupCheckDependencies {
  config: Config;
  repos: { servers: ServerRepository; runningChecks: RunningCheckRepository; challenges: ChallengeRepository };
  answers: AnswerReader;
}

export class SetupCheckRunner {
  /** This API process (and app: tests build several in one process), as the database records it. */
  readonly process = `${hostname()} pid ${process.pid} app ${randomBytes(3).toString('hex')}`;

  constructor(
    private readonly deps: SetupCheckDependencies,
    /** Called when a check starts or ends (the routes drop the status responses they keep). */
    private readonly changed: () => void,
  ) {}

  private get deadlineMs(): number {
    return this.deps.config.checkTimeoutSeconds * 1000;
  }

  /**
   * How long a claim holds without its process: the call's deadline, then as long again
   * (at least 10 s) for reading the answer and storing the result. A process that died
   * mid-check blocks the next check for at most this long.
   */
  private get claimMs(): number {
    return this.deadlineMs + Math.max(this.deadlineMs, 10_000);
  }

  async running(serverId: number): Promise<RunningCheck | null> {
    return await this.deps.repos.runningChecks.running(serverId);
  }

  /** Checks the server now and returns the stored result; 409 while another check of it runs. */
  async runNow(server: AnnotationServer, log: Log): Promise<ServerCheck> {
    const claim = await this.deps.repos.runningChecks.claim(server.id, this.process, this.claimMs);
    if (!claim.claimed) {
      log.info({ serverId: server.id, runningIn: claim.check.process }, 'setup check refused: one is running');
      throw conflict(
        `a setup check of server ${server.id} is already running (started ${claim.check.startedAt.toISOString()}); ` +
          `its result appears in GET /api/servers/${server.id} when it ends, by ${claim.check.expiresAt.toISOString()} at the latest; ` +
          'read it there, or ask again once it has ended',
      );
    }
    this.changed();
    try {
      return await this.check(server);
    } finally {
      await this.release(server.id, log);
    }
  }

  /** Starts a check that runs after the answer, or joins the one running; the check that runs either way. */
  async startInBackground(server: AnnotationServer, log: Log): Promise<RunningCheck> {
    const claim = await this.deps.repos.runningChecks.claim(server.id, this.process, this.claimMs);
    if (!claim.claimed) return claim.check;
    this.changed();
    // A check against a server that hangs takes the whole check deadline (30 s by default): a form must not wait for it.
    this.check(server)
      .catch((err: unknown) => log.error({ err, serverId: server.id }, 'setup check failed to run'))
      .finally(() => void this.release(server.id, log));
    return claim.check;
  }

  /** On shutdown: checks this process still runs are no longer running anywhere. */
  async close(): Promise<void> {
    await this.deps.repos.runningChecks.releaseAll(this.process);
  }

  private async check(server: AnnotationServer): Promise<ServerCheck> {
    if (isPulled(server)) {
      // Nothing to call: the check waits for the agent to take the sample article (agent-wait.ts).
      const waiting = waitingForAgentCheck();
      await this.deps.repos.servers.saveCheck(server.id, waiting);
      return waiting;
    }
    const challenge = (await this.deps.repos.challenges.byId(server.challengeId))!;
    const check = await checkServer(server, challenge, {
      deadlineMs: this.deadlineMs,
      maxAnswerBytes: this.deps.config.maxAnswerBytes,
      answers: this.deps.answers,
      publicUrlsOnly: this.deps.config.publicUrlsOnly,
    });
    await this.deps.repos.servers.saveCheck(server.id, check);
    return check;
  }

  private async release(serverId: number, log: Log): Promise<void> {
    try {
      await this.deps.repos.runningChecks.release(serverId, this.process);
    } catch (err) {
      // The claim then expires on its own.
      log.error({ err, serverId }, 'could not mark the setup check as ended');
    } finally {
      this.changed();
    }
  }
}
