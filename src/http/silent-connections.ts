// Connections that have not sent a request yet are closed when the app closes. Node's server
// closes idle keep-alive connections then, but counts a connection still waiting for its first
// request's headers as busy, and waits for it up to headersTimeout (60 s): a client's spare
// connection (undici opens one after a request it aborted), a port probe or a slow client held
// a SIGTERM that long. Nothing is lost by closing them: no request of theirs has begun, and
// one arriving now would be refused (503 shutting_down) anyway.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export function closeSilentConnectionsOnClose(app: FastifyInstance): void {
  const silent = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    silent.add(socket);
    socket.once('close', () => silent.delete(socket));
  });
  app.server.on('request', (request: { socket: Socket }) => silent.delete(request.socket));
  app.addHook('preClose', (done) => {
    for (const socket of silent) socket.destroy();
    silent.clear();
    done();
  });
}
