// A pid that names no running process: the tests of data-directory locks hand it to a lock
// file as the pid of an owner that was killed.
import { spawn } from 'node:child_process';

/** The pid of a process that has exited. */
export async function goneProcess(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  await new Promise((r) => child.once('exit', r));
  return child.pid!;
}
