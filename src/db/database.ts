// The database seam: PostgreSQL through `pg`, or PGlite embedded. Both speak the same SQL,
// so repositories and migrations are written once against this small interface.

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly kind: 'postgres' | 'pglite';
  /** Runs fn in one transaction: all of its writes land, or none do. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Runs several statements, without parameters, in one round trip and one transaction (the
   * simple query protocol's implicit one: an error rolls all of them back); the rows of
   * each statement, in order. For hot paths only, where a round trip per statement is what
   * costs: values must be inlined with sqlLiteral.
   */
  script(sql: string): Promise<Array<Array<Record<string, unknown>>>>;
  close(): Promise<void>;
  /** Whether writes are refused for lack of disk space (PGlite's data directory below its reserve, see disk-reserve.ts). */
  diskFull?(): boolean;
}

export class DatabaseUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = this.constructor.name;
  }
}

/**
 * A write refused because the database's disk is (nearly) full. Carries PostgreSQL's own
 * SQLSTATE for it, 53100, so that dispatch puts the work back unblamed (retry.ts) and the
 * API answers 507 database_disk_full, as for PostgreSQL's own "could not extend file".
 */
export class DatabaseDiskFullError extends Error {
  readonly code = '53100';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = this.constructor.name;
  }
}

/**
 * A string as an SQL literal. Safe because PostgreSQL (and PGlite) read standard-conforming
 * strings — backslashes are plain characters and a quote is escaped by doubling it — and
 * text never holds NUL (XML-illegal characters are replaced where articles and answers enter).
 */
export function sqlLiteral(value: string): string {
  if (value.includes('\u0000')) throw new Error('an SQL literal cannot hold a NUL character');
  return `'${value.replaceAll("'", "''")}'`;
}

/**
 * The repository's handle as one that opens transactions. A repository built on a
 * transaction's handle (to join a larger one) has none: its own-transaction methods refuse.
 */
export function transactional(db: Queryable): Database {
  if (!('transaction' in db))
    throw new Error('this repository runs inside a transaction already; use the one built with the database handle');
  return db as Database;
}
