// Resources.*: the annotation servers behind the served articles — those registered for
// on-demand annotation (the live challenge). Never their URLs: only what a reader needs
// to tell the servers apart and credit them.
import { LIVE_SLUG, type ChallengeRepository } from '../challenges/repository.ts';
import type { AnnotationServer, ServerRepository } from '../servers/repository.ts';
import { Fault, FAULT } from './faults.ts';
import { serverIdParam, type BcmsMethod } from './method.ts';

const SERVER_HELP = 'A server struct is {id: int, name: string, team: string, tasks: array of string, state: "active"|"paused"}.';

function serverStruct(s: AnnotationServer) {
  return { id: s.id, name: s.name, team: s.team, tasks: [...s.tasks], state: s.state };
}

/** What the Resources.* methods read: the live challenge and its servers. */
export interface ResourceRepositories {
  challenges: Pick<ChallengeRepository, 'bySlug'>;
  servers: Pick<ServerRepository, 'byId' | 'listByChallenge'>;
}

export function resourceMethods(repos: ResourceRepositories): BcmsMethod[] {
  async function liveServers(): Promise<AnnotationServer[]> {
    const live = await repos.challenges.bySlug(LIVE_SLUG);
    return live ? await repos.servers.listByChallenge(live.id) : [];
  }

  const list: BcmsMethod = {
    name: 'Resources.getServerList',
    usage: 'Resources.getServerList() → array of struct',
    signatures: [['array']],
    help: `Every annotation server that on-demand articles are sent to, by id. ${SERVER_HELP}`,
    async run() {
      return (await liveServers()).map(serverStruct);
    },
  };
  const one: BcmsMethod = {
    name: 'Resources.getServer',
    usage: 'Resources.getServer(id: int) → struct',
    signatures: [['struct', 'int']],
    help: `One annotation server. ${SERVER_HELP}`,
    async run([idParam]) {
      const id = serverIdParam(idParam, one.usage);
      const server = await repos.servers.byId(id);
      if (!server || server.challenge !== LIVE_SLUG)
        throw new Fault(FAULT.unknownServer, `no on-demand annotation server has id ${id}; Resources.getServerList() lists them`);
      return serverStruct(server);
    },
  };
  return [list, one];
}
