// A Database that fails on purpose: the next N calls (queries, or only transactions) throw a
// connection-class error, as they would while PostgreSQL restarts. Everything else is passed
// to the real database underneath.
import type { Database, Queryable } from '../../src/db/database.ts';

export class InjectedDbError extends Error {
  constructor(readonly code: string) {
    super(`injected database failure (${code})`);
    this.name = 'InjectedDbError';
  }
}

export interface FlakyDatabase extends Database {
  /** The next n calls of that kind fail with an error carrying `code`. */
  failNext(n: number, code?: string, which?: 'any' | 'transaction'): void;
  /** Calls that were failed on purpose so far. */
  readonly injected: number;
  /** Calls made so far (failed or not). */
  readonly calls: number;
}

export function flakyDatabase(inner: Database): FlakyDatabase {
  let pending = 0;
  let code = '57P01';
  let which: 'any' | 'transaction' = 'any';
  let injected = 0;
  let calls = 0;
  const maybeFail = (kind: 'query' | 'transaction'): void => {
    calls++;
    if (pending > 0 && (which === 'any' || kind === 'transaction')) {
      pending--;
      injected++;
      throw new InjectedDbError(code);
    }
  };
  return {
    get kind() {
      return inner.kind;
    },
    get injected() {
      return injected;
    },
    get calls() {
      return calls;
    },
    failNext(n, c = '57P01', w = 'any') {
      pending = n;
      code = c;
      which = w;
    },
    async query(sql, params) {
      maybeFail('query');
      return await inner.query(sql, params);
    },
    async exec(sql) {
      maybeFail('query');
      await inner.exec(sql);
    },
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      maybeFail('transaction');
      return await inner.transaction(fn);
    },
    async script(sql) {
      maybeFail('transaction');
      return await inner.script(sql);
    },
    close: () => inner.close(),
  };
}
