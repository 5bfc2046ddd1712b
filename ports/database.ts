/**
 * One small interface over the two databases the product runs on: PGlite (embedded, in
 * `DATA_DIR`) and PostgreSQL (through `pg`). Everything above it writes plain PostgreSQL.
 *
 * Conventions that keep both drivers alike: bigints are selected as `::text`, JSON parameters
 * are passed as strings and cast with `::jsonb`.
 */
export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number;
}

export interface Queryable {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<QueryResult<Row>>;
}

export type NotificationHandler = (payload: string) => void;

export interface ListenOptions {
  /**
   * Called when notices may have been missed: the connection that listens was lost and is back
   * (PostgreSQL; PGlite lives in the process and never loses one). Whoever keeps state fed by
   * notices starts afresh.
   */
  onReconnect?: () => void;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs a script of several statements without parameters (schema migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** LISTEN on a channel; the returned function stops listening. */
  listen(channel: string, handler: NotificationHandler, options?: ListenOptions): Promise<() => Promise<void>>;
  /** A session of its own for advisory locks (leadership among processes). */
  openLockSession(): Promise<LockSession>;
  close(): Promise<void>;
}

/** PostgreSQL's SQLSTATE for a unique-constraint violation. */
export const UNIQUE_VIOLATION = '23505';

export function sqlState(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/**
 * Holds session-level advisory locks on a connection of its own: a lock lasts until it is
 * released or the connection ends, so a process that dies gives up its locks by itself.
 */
export interface LockSession {
  /** Takes the lock named `key` if no other session holds it. */
  tryLock(key: string): Promise<boolean>;
  unlock(key: string): Promise<void>;
  /** Called once if the connection (and with it every lock) is lost. */
  onLost(handler: () => void): void;
  close(): Promise<void>;
}
