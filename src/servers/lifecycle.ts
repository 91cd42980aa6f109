// An annotation server's life through the API: registered (and checked), started, paused,
// checked again, its failed articles sent again, deleted. Built once per process by the
// composition root; the routes (routes.ts) find the server, check who may touch it and map
// what this answers to HTTP. A closed challenge freezes its servers: every change here is
// refused while it is closed (challenges/frozen.ts).
import type { Config } from '../config.ts';
import type { AnswerReader } from '../dispatch/answer-reader.ts';
import type { DispatchService } from '../dispatch/service.ts';
import type { ReliabilityRepository } from '../reliability/repository.ts';
import type { ServerStatusRepository } from './status-repository.ts';
import type { Challenge } from '../challenges/repository.ts';
import { refuseWhenClosed } from '../challenges/frozen.ts';
import { DEFAULT_METHOD } from '../dispatch/annotators/xmlrpc.ts';
import { DEFAULT_PROTOCOL, isPulled, type ServerProtocolName } from '../dispatch/annotators/registry.ts';
import type { TaskName } from '../families/registry.ts';
import { badRequest, conflict } from '../http/api-error.ts';
import { protocolProblem } from './protocol-field.ts';
import type { AnnotationServer, ServerCheck } from './repository.ts';
import type { RunningCheck } from './setup-check/running-check-repository.ts';
import { SetupCheckRunner, type SetupCheckDependencies } from './setup-check/runner.ts';
import { resolvedUrlProblem } from '../http/url-policy.ts';

interface Log {
  info(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** A registration as the team sends it; what is left out takes its default. */
export interface Registration {
  name: string;
  url?: string;
  tasks: TaskName[];
  method?: string;
  concurrency?: number;
  sendMetadata?: boolean;
  protocol?: ServerProtocolName;
  batchSize?: number;
}

/** A setup check: its result (run now), or the check that runs after the answer (background). */
export type CheckOutcome = { check: ServerCheck } | { running: RunningCheck };

/** A change whose queue step may have been left for later (Redis did not answer): `queued` false. */
export interface Changed {
  server: AnnotationServer;
  queued: boolean;
}

/**
 * What the lifecycle needs of the composition root, named part by part rather than as a
 * part of AppContext: the root builds this service, and the service does not lean on it.
 */
export interface LifecycleDependencies extends SetupCheckDependencies {
  config: Config;
  repos: SetupCheckDependencies['repos'] & { serverStatus: ServerStatusRepository; reliability: ReliabilityRepository };
  answers: AnswerReader;
  dispatch: DispatchService;
  /** The agents of a pull server, where this process takes leases (the API; src/pull's AgentStatus). */
  agentStatus?: (serverId: number) => Promise<object> | undefined;
}

export class ServerLifecycle {
  // Setup checks are claimed in the database, so every API process shows a running one and
  // none calls the server a second time meanwhile (setup-check/runner.ts).
  private readonly checks: SetupCheckRunner;
  private readonly listeners = new Set<() => void>();

  constructor(private readonly deps: LifecycleDependencies) {
    this.checks = new SetupCheckRunner(deps, () => this.changed());
  }

  /**
   * Calls `listener` after every change made here, and when a check starts or ends (the
   * routes drop the status answers they keep). Answers the function that stops it.
   */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Registers the team's server (paused) and checks it: at once, or after the answer with
   * `background`. 400 for tasks the challenge does not run, a protocol that does not fit the
   * fields or a URL the policy refuses; 409 when closed, at the team's limit or for a name taken.
   */
  async register(
    challenge: Challenge,
    teamId: number,
    wanted: Registration,
    opts: { background: boolean; log: Log },
  ): Promise<{ server: AnnotationServer } & CheckOutcome> {
    refuseWhenClosed(challenge, 'no servers can be registered');
    const unknown = wanted.tasks.filter((t) => !challenge.tasks.includes(t));
    if (unknown.length > 0)
      throw badRequest(`challenge "${challenge.slug}" has no task ${unknown.join(', ')}; its tasks are ${challenge.tasks.join(', ')}`);
    const protocol = wanted.protocol ?? DEFAULT_PROTOCOL;
    const unfit = protocolProblem(protocol, wanted);
    if (unfit) throw badRequest(unfit);
    // A pull server is never connected to, so the URL policy has nothing to judge.
    const problem = wanted.url === undefined ? '' : await resolvedUrlProblem(wanted.url, this.deps.config.publicUrlsOnly);
    if (problem) throw badRequest(`the server URL cannot be used: ${problem}`);

    const created = await this.deps.repos.servers.register(
      {
        challengeId: challenge.id,
        teamId,
        name: wanted.name,
        url: wanted.url ?? '',
        tasks: wanted.tasks,
        method: wanted.method ?? DEFAULT_METHOD,
        protocol,
        concurrency: wanted.concurrency ?? 1,
        batchSize: wanted.batchSize ?? 1,
        sendMetadata: wanted.sendMetadata ?? false,
      },
      challenge.serversPerTeam,
    );
    if (created === 'limit')
      throw conflict(
        `your team already has ${challenge.serversPerTeam} servers in "${challenge.slug}", the most allowed; delete or reuse one`,
      );
    if (created === 'duplicate') throw conflict(`your team already has a server named "${wanted.name}" in "${challenge.slug}"`);
    await this.deps.dispatch.serverRegistered(created);
    const checked = await this.check(created, opts);
    if ('running' in checked) opts.log.info({ serverId: created.id, team: created.team }, 'annotation server registered; its check runs');
    else opts.log.info({ serverId: created.id, team: created.team, check: checked.check.outcome }, 'annotation server registered');
    return { server: created, ...checked };
  }

  /**
   * Calls the server with the sample article now (409 while another check of it runs), or
   * with `background` starts a check that runs after the answer (or joins the running one).
   */
  async checkAgain(server: AnnotationServer, opts: { background: boolean; log: Log }): Promise<CheckOutcome> {
    await this.unlessClosed(server, 'its servers are not called');
    return await this.check(server, opts);
  }

  /** Sends the server its articles (those it has not had yet are queued). */
  async start(server: AnnotationServer): Promise<Changed> {
    const challenge = await this.unlessClosed(server, 'its servers cannot be started');
    return await this.after(server.id, await this.deps.dispatch.start(server, challenge));
  }

  /** Stops sending articles; those in flight finish. */
  async pause(server: AnnotationServer): Promise<Changed> {
    await this.unlessClosed(server, 'its servers cannot be paused');
    return await this.after(server.id, await this.deps.dispatch.pause(server));
  }

  /** Sends every failed article again; answers how many. */
  async retryFailed(server: AnnotationServer): Promise<{ server: AnnotationServer; requeued: number }> {
    const challenge = await this.unlessClosed(server, 'failed articles are not sent again');
    const requeued = await this.deps.dispatch.retryFailed(server, challenge);
    this.changed();
    return { server: (await this.deps.repos.servers.byId(server.id))!, requeued };
  }

  /**
   * Deletes a paused server with its queue, deliveries, attempts and answers. 409 while it
   * is active or while another record still needs it; 503 while Redis does not answer.
   */
  async delete(server: AnnotationServer, log: Log): Promise<void> {
    await this.unlessClosed(server, 'its servers cannot be deleted');
    // Only while paused: an active server may have a request in flight whose answer would
    // then be stored for a server that no longer exists.
    if (server.state !== 'paused') throw conflict(`server ${server.id} is active; pause it first, then delete it`);
    this.deps.dispatch.requireQueues('the server was not deleted');
    // Rows first: if another record still needs the server (say, a test-suite run), nothing
    // is removed and the queue keeps its jobs, so the server stays usable.
    const deletion = await this.deps.repos.servers.deleteWithHistory(server.id);
    if (!deletion.deleted)
      throw conflict(
        `server ${server.id} is still referenced by other records (${deletion.referencedFrom ?? 'another table'}); it cannot be deleted`,
      );
    await this.deps.dispatch.removeQueue(server.id);
    this.changed();
    log.info({ serverId: server.id }, 'annotation server deleted');
  }

  /** The status page's figures: progress, timing, the page of failed attempts asked for, the check running, a pull server's agents. */
  async status(server: AnnotationServer, page: { limit: number; offset: number }) {
    const { serverStatus, reliability } = this.deps.repos;
    const [running, progress, timing, errors, failures, histogram, figures] = await Promise.all([
      this.checks.running(server.id),
      serverStatus.progress(server.id),
      serverStatus.timing(server.id),
      serverStatus.errors(server.id, page.limit, page.offset),
      serverStatus.failures(server.id),
      serverStatus.histogram(server.id),
      reliability.server(server.id),
    ]);
    const check = running ? { checkRunning: true, checkStartedAt: running.startedAt.toISOString() } : { checkRunning: false };
    const agent = isPulled(server) ? await this.deps.agentStatus?.(server.id) : undefined;
    return {
      ...server,
      ...check,
      progress,
      timing,
      failuresByKind: failures.byKind,
      givenBack: failures.givenBack,
      errorsOffset: page.offset,
      errors,
      histogram,
      reliability: figures,
      ...(agent ? { agent } : {}),
    };
  }

  /** On shutdown: the checks this process still runs are no longer running anywhere. */
  async close(): Promise<void> {
    await this.checks.close();
  }

  private async check(server: AnnotationServer, opts: { background: boolean; log: Log }): Promise<CheckOutcome> {
    if (opts.background) return { running: await this.checks.startInBackground(server, opts.log) };
    return { check: await this.checks.runNow(server, opts.log) };
  }

  /** The server's challenge; 409 while it is closed (`what` says what is refused). */
  private async unlessClosed(server: AnnotationServer, what: string): Promise<Challenge> {
    const challenge = (await this.deps.repos.challenges.byId(server.challengeId))!;
    refuseWhenClosed(challenge, what);
    return challenge;
  }

  private async after(serverId: number, queued: boolean): Promise<Changed> {
    this.changed();
    return { server: (await this.deps.repos.servers.byId(serverId))!, queued };
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
