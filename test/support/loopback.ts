// A test server listening on a free loopback port, whose close() ends open connections
// at once (a hanging request or a keep-alive socket must not hold a test up).
import type { Server, Socket } from 'node:net';

export interface OnLoopback {
  port: number;
  close(): Promise<void>;
}

export async function listenOnLoopback(server: Server, port = 0): Promise<OnLoopback> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as { port: number }).port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
