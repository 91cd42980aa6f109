// Annotations.*: the stored answers of one article, as BCMS served them.
import type { AnswerRepository } from '../articles/answer-repository.ts';
import { servedArticle, type ServedArticles } from './articles.ts';
import { Fault, FAULT } from './faults.ts';
import { serverIdParam, type BcmsMethod } from './method.ts';
import { answerToWire, WIRE_HELP } from './wire.ts';

const ARTICLE_HELP =
  'The article is an int (a PubMed id: the on-demand article submitted with that number as its id) ' +
  'or a string (the id POST /api/articles answered, or the id the article was submitted with).';
const RESULT_HELP = `A result struct has one key per task the server answered: ${WIRE_HELP}. Confidences are doubles; ranks, taxids and offsets ints.`;
const SIGNATURES = (result: string, ...more: string[]) => [
  [result, 'int', ...more],
  [result, 'string', ...more],
];

/** What the Annotations.* methods read: the served article, then its servers' stored answers. */
export interface AnnotationRepositories extends ServedArticles {
  answers: Pick<AnswerRepository, 'serverStates'>;
}

export function annotationMethods(repos: AnnotationRepositories): BcmsMethod[] {
  const list: BcmsMethod = {
    name: 'Annotations.getAnnotationServerList',
    usage: 'Annotations.getAnnotationServerList(article: int|string) → array of int',
    signatures: SIGNATURES('array'),
    help: `The ids of the servers the article was sent to (answered, failed or still working). ${ARTICLE_HELP} Resources.getServer(id) describes each server.`,
    async run([ref]) {
      const article = await servedArticle(repos, ref, list.usage);
      return (await repos.answers.serverStates(article.id)).map((s) => s.serverId);
    },
  };
  const all: BcmsMethod = {
    name: 'Annotations.getAnnotations',
    usage: 'Annotations.getAnnotations(article: int|string) → struct',
    signatures: SIGNATURES('struct'),
    help: `Every stored answer to the article: a struct of server id → result struct (servers that have not answered are left out). ${ARTICLE_HELP} ${RESULT_HELP}`,
    async run([ref]) {
      const article = await servedArticle(repos, ref, all.usage);
      const servers = await repos.answers.serverStates(article.id);
      return Object.fromEntries(servers.flatMap((s) => (s.result ? [[String(s.serverId), answerToWire(s.result)]] : [])));
    },
  };
  const one: BcmsMethod = {
    name: 'Annotations.getAnnotation',
    usage: 'Annotations.getAnnotation(article: int|string, serverId: int) → struct',
    signatures: SIGNATURES('struct', 'int'),
    help: `One server's stored answer to the article: a result struct. ${ARTICLE_HELP} ${RESULT_HELP}`,
    async run([ref, serverParam]) {
      const article = await servedArticle(repos, ref, one.usage);
      const serverId = serverIdParam(serverParam, one.usage);
      const server = (await repos.answers.serverStates(article.id)).find((s) => s.serverId === serverId);
      // eslint-disable-next-line @typescript-eslint/no-base-to-string -- an article reference is a string or an int
      const shown = typeof ref === 'string' ? JSON.stringify(ref) : String(ref);
      if (!server) {
        throw new Fault(
          FAULT.unknownServer,
          `article ${shown} was not sent to server ${serverId}; Annotations.getAnnotationServerList(article) lists the servers it was sent to`,
        );
      }
      if (!server.result) {
        const why = server.state === 'failed' ? 'it failed on it for good' : 'it is still working on it; ask again later';
        throw new Fault(
          FAULT.unknownServer,
          `server ${serverId} has no answer to article ${shown}: ${why}; Annotations.getAnnotations(article) gives every answer there is`,
        );
      }
      return answerToWire(server.result);
    },
  };
  return [list, all, one];
}
