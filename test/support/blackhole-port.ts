// A loopback port whose host "drops SYNs", without privileges: a listening socket that never
// accepts, its accept queue filled by connections the helper holds open. Linux drops the SYN
// of any further connect while the queue is full, so that connect hangs (until the kernel
// gives up, ~130 s) exactly as one to a black-holed host behind a firewall or NAT does.
// The helper checks that a further connect really hangs before it says it is ready.
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

// Python standard library only: a child process, so the held connections and the listening
// socket are nothing of the test's event loop, and killing it frees the port at once.
const HELPER = `
import select, socket, sys, time
listener = socket.socket()
listener.bind(('127.0.0.1', 0))
listener.listen(0)
port = listener.getsockname()[1]
held = []
def connect_nowait():
    s = socket.socket()
    s.setblocking(False)
    try:
        s.connect(('127.0.0.1', port))
    except BlockingIOError:
        pass
    return s
for _ in range(2):
    held.append(connect_nowait())
time.sleep(0.2)
probe = connect_nowait()
_, writable, _ = select.select([], [probe], [], 0.7)
if writable:
    print('not black-holed: a further connect was answered', flush=True)
    sys.exit(1)
probe.close()
print('ready %d' % port, flush=True)
sys.stdin.read()
`;

export interface BlackholePort {
  /** A URL on the port: a connect to it hangs. */
  url: string;
  port: number;
  close(): void;
}

/** Starts the helper; rejects if it is not ready within `readyMs` (or the connect is not black-holed here). */
export async function startBlackholePort(path = '/', readyMs = 5_000): Promise<BlackholePort> {
  // stdin is a pipe the helper reads to its end: it exits when this process does, too.
  const child: ChildProcess = spawn('python3', ['-c', HELPER], { stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk) => (output += chunk));
  const lines = createInterface({ input: child.stdout! });
  let timer: NodeJS.Timeout | undefined;
  try {
    const port = await new Promise<number>((resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`the black-hole helper was not ready within ${readyMs} ms: ${output}`)), readyMs);
      child.once('error', (err) => reject(new Error(`cannot start python3 (is it installed?): ${err.message}`)));
      child.once('exit', (code) => reject(new Error(`the black-hole helper exited with code ${code}: ${output}`)));
      lines.on('line', (line) => {
        output += `${line}\n`;
        const m = /^ready (\d+)$/.exec(line);
        if (m) resolve(Number(m[1]));
      });
    });
    return { port, url: `http://127.0.0.1:${port}${path}`, close: () => void child.kill('SIGKILL') };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
