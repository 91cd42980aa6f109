// A command of the command line run in the test process, its output kept: what it writes to
// stdout and stderr is collected as text, and it reads the environment given (never the
// test process's), on no terminal.

export interface CapturedIo {
  /** Everything written to stdout so far. */
  out: string;
  /** Everything written to stderr so far. */
  err: string;
  isTty: false;
  env: NodeJS.ProcessEnv;
  stdout(s: string): void;
  stderr(s: string): void;
}

export function captured(env: NodeJS.ProcessEnv = {}): CapturedIo {
  const io: CapturedIo = {
    out: '',
    err: '',
    isTty: false,
    env,
    stdout: (s) => void (io.out += s),
    stderr: (s) => void (io.err += s),
  };
  return io;
}
