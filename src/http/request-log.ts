// One log line per request, when it has been answered. Fastify's default writes two lines
// per request at info level; status pages and scripts poll the read routes hundreds of times
// a second, and those lines would be most of the log and a share of the CPU. So reads that
// succeed are logged at debug, while changes (POST, PUT, PATCH, DELETE) and every answer of
// 400 or above are logged at info: the log keeps who changed what and what failed. Errors of
// the connection itself stay at error level.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, url: request.url, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else if (READS.has(request.method) && reply.statusCode < 400) reply.log.debug(line, 'request answered');
    else reply.log.info(line, 'request answered');
  }
}
