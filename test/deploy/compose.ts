// Reads docker-compose.yml as `docker compose` would, for test/deploy/compose.test.ts, which
// runs its services as local processes (Docker is not available to the tests).
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { parse } from 'yaml';

export interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[]; interval?: string; timeout?: string; retries?: number; start_period?: string };
  deploy?: { replicas?: number };
  stop_grace_period?: string;
  restart?: string;
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

export function readCompose(path: string): ComposeFile {
  // Anchors and aliases (`*metaserver-env`) are resolved by the parser, as compose does.
  return parse(readFileSync(path, 'utf8')) as ComposeFile;
}

/**
 * Compose's variable substitution in a value: ${NAME}, ${NAME:-default} (default when
 * unset or empty) and ${NAME:?message} (an error when unset or empty).
 */
export function interpolate(value: string, vars: Record<string, string | undefined>): string {
  return value.replace(
    /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:-|:\?)([^}]*))?\}/g,
    (_all, name: string, op: string | undefined, arg: string | undefined) => {
      const set = vars[name];
      if (set !== undefined && set !== '') return set;
      if (op === ':-') return arg ?? '';
      if (op === ':?') throw new Error(`required variable ${name} is missing a value: ${arg}`);
      return '';
    },
  );
}

/** A service's environment with variables substituted. */
export function serviceEnvironment(service: ComposeService, vars: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), vars)]));
}

/** Compose's durations ("45s", "1m30s", "500ms") in milliseconds. */
export function durationMs(text: string): number {
  let total = 0;
  const parts = text.matchAll(/(\d+(?:\.\d+)?)(ms|h|m|s)/g);
  let matched = '';
  for (const [whole, n, unit] of parts) {
    matched += whole;
    total += Number(n) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as 'ms'];
  }
  if (matched !== text) throw new Error(`not a compose duration: ${text}`);
  return total;
}

/** The services in an order that starts each after those it depends on. */
export function startOrder(file: ComposeFile): string[] {
  const order: string[] = [];
  const visit = (name: string, path: string[]): void => {
    if (order.includes(name)) return;
    if (path.includes(name)) throw new Error(`depends_on cycle: ${[...path, name].join(' -> ')}`);
    for (const dep of Object.keys(file.services[name].depends_on ?? {})) visit(dep, [...path, name]);
    order.push(name);
  };
  for (const name of Object.keys(file.services)) visit(name, []);
  return order;
}

/**
 * Which of these processes holds the TCP connection whose local port is `port` (Linux:
 * /proc/net/tcp* names the socket's inode, /proc/PID/fd the process holding it). How the
 * test finds the worker process an annotation server's request came from.
 */
export function pidHoldingPort(port: number, pids: number[]): number | undefined {
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${hex}`)) inodes.add(cols[9]);
    }
  }
  for (const pid of pids) {
    for (const fd of readdirSync(`/proc/${pid}/fd`)) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1])) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}
