// The team's own annotation server, as the agent reaches it: forwarded to over HTTP in the
// server's protocol (the same protocol modules and HTTP exchange dispatch uses, without the
// URL policy: it is the team's own network), or run as a command per article.
import { spawn } from 'node:child_process';
import { request, type Dispatcher } from 'undici';
import { callHttp, createServerAgent } from '../dispatch/annotators/http-call.ts';
import { withFormatErrors } from '../dispatch/annotators/outcome.ts';
import { protocolOf, type ProtocolName } from '../dispatch/annotators/registry.ts';
import type { RequestParts } from '../dispatch/annotators/types.ts';
import type { LeaseArticle } from './meta-link.ts';

/**
 * The server's answer (the JSON protocol's answer object), or why there is none;
 * `unreachable` when the server did not answer at all (connection refused, reset): not
 * the article's fault, the lease is given back.
 */
export type LocalOutcome = { ok: true; answer: unknown } | { ok: false; message: string; unreachable?: boolean };

export interface LocalServer {
  annotate(article: LeaseArticle, deadlineMs: number, signal: AbortSignal): Promise<LocalOutcome>;
  /** null when the server answers (any HTTP answer, even an error), otherwise why it does not. */
  probe(): Promise<string | null>;
  close(): Promise<void>;
}

/** How long a probe of the team's server waits for any answer. */
const PROBE_TIMEOUT_MS = 2_000;
/**
 * How long a connection to the team's own server may take: it is on the team's network, so
 * one not accepted by then is a server down (leases paused, given back), and the attempt
 * does not hold a connection slot until the kernel gives up (~130 s on a dropped SYN).
 */
const LOCAL_CONNECT_TIMEOUT_MS = 10_000;

/** The parts the lease sent, as the team's server gets them: metadata when the lease named the article. */
function partsOf(article: LeaseArticle): RequestParts {
  return {
    text: article.text,
    ...(article.given !== undefined ? { given: article.given } : {}),
    ...(article.id !== undefined ? { meta: { article: article.id, tasks: article.tasks } } : {}),
  };
}

export function forwardTo(
  url: string,
  protocolName: ProtocolName,
  opts: { method: string; connections: number; maxAnswerBytes: number },
): LocalServer {
  const protocol = protocolOf(protocolName);
  const dispatcher: Dispatcher = createServerAgent({ connections: opts.connections, connectTimeoutMs: LOCAL_CONNECT_TIMEOUT_MS });
  return {
    async annotate(article, deadlineMs, signal) {
      const call = await callHttp(
        {
          url,
          body: protocol.encode(partsOf(article), { method: opts.method }),
          contentType: protocol.contentType,
          accept: protocol.accept,
          expects: protocol.expects,
          polling: protocol.polling,
          deadlineMs,
          maxResponseBytes: opts.maxAnswerBytes,
          signal,
          // Decoded only: the meta-server validates the answer, as for any other server.
          decode: withFormatErrors((body, charset) => {
            const decoded = protocol.decode(body, charset, article.text);
            return decoded.kind === 'fault' ? decoded : { kind: 'value', value: decoded.value };
          }, protocol.formatErrorOf),
        },
        dispatcher,
      );
      if (call.ok) return { ok: true, answer: call.value };
      return { ok: false, message: `${call.kind}: ${call.detail}`, ...(call.kind === 'connection' ? { unreachable: true } : {}) };
    },
    async probe() {
      try {
        const res = await request(url, { method: 'GET', dispatcher, signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
        await res.body.dump();
        return null;
      } catch (err) {
        return (err as Error).message;
      }
    },
    async close() {
      await dispatcher.close().catch(() => {});
    },
  };
}

/** Runs `command` (through the shell) per article: the lease's article as JSON on standard input, the answer's JSON on standard output. */
export function execCommand(command: string, opts: { maxAnswerBytes: number }): LocalServer {
  return {
    annotate(article, deadlineMs, signal) {
      return new Promise<LocalOutcome>((resolve) => {
        const child = spawn('/bin/sh', ['-c', command], { stdio: ['pipe', 'pipe', 'pipe'] });
        const out: Buffer[] = [];
        let outBytes = 0;
        let err = '';
        let done = false;
        const finish = (outcome: LocalOutcome) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          if (child.exitCode === null) child.kill('SIGKILL');
          resolve(outcome);
        };
        const onAbort = () => finish({ ok: false, message: 'cancelled: the agent is stopping' });
        signal.addEventListener('abort', onAbort);
        const timer = setTimeout(
          () =>
            finish({
              ok: false,
              message: `timeout: the command gave no answer within ${(deadlineMs / 1000).toFixed(1)} s (the lease's deadline)`,
            }),
          deadlineMs,
        );
        child.stdout.on('data', (chunk: Buffer) => {
          outBytes += chunk.length;
          if (outBytes > opts.maxAnswerBytes)
            finish({ ok: false, message: `protocol: the command wrote more than ${opts.maxAnswerBytes} bytes` });
          else out.push(chunk);
        });
        child.stderr.on('data', (chunk: Buffer) => {
          err = (err + chunk.toString('utf8')).slice(-2000);
        });
        child.on('error', (e) => finish({ ok: false, message: `the command could not be run: ${e.message}` }));
        child.on('close', (code, sig) => {
          if (code !== 0)
            return finish({ ok: false, message: `the command exited with ${code ?? sig}${err.trim() ? `: ${err.trim()}` : ''}` });
          const text = Buffer.concat(out).toString('utf8');
          try {
            finish({ ok: true, answer: JSON.parse(text) });
          } catch (e) {
            finish({ ok: false, message: `protocol: the command's output is not JSON (${(e as Error).message}): ${text.slice(0, 200)}` });
          }
        });
        child.stdin.on('error', () => {}); // a command that does not read its input
        child.stdin.end(JSON.stringify(article));
      });
    },
    // A command is started per article: there is no server to be down.
    probe: () => Promise.resolve(null),
    async close() {},
  };
}
