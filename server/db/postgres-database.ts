import pg from 'pg';
import type { Database, NotificationHandler, Queryable, QueryResult } from '../../ports/database.js';

/**
 * PostgreSQL through `pg`: a pool for queries and transactions, and one dedicated connection
 * for LISTEN that reconnects (and re-listens) when it drops.
 */
export async function openPostgresDatabase(connectionString: string, poolSize = 10): Promise<Database> {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // An idle client that loses its connection emits here; without a listener it would crash us.
  pool.on('error', () => {});
  await pool.query('SELECT 1');

  const listeners = new Map<string, Set<NotificationHandler>>();
  /** Told when the LISTEN connection is back after a drop: notices sent meanwhile were lost. */
  const reconnectHandlers = new Set<() => void>();
  let listenClient: pg.Client | null = null;
  let connecting: Promise<pg.Client> | null = null;
  let connectedBefore = false;
  let closed = false;

  // Until it is back: a failed attempt tries again, or notices would stop for good.
  const reconnectSoon = () => {
    if (!closed) setTimeout(() => void ensureListener().catch(reconnectSoon), 500);
  };
  const connectListener = async (): Promise<pg.Client> => {
    const client = new pg.Client({ connectionString });
    client.on('notification', (message) => {
      for (const handler of listeners.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    let dropped = false;
    const drop = () => {
      if (dropped) return;
      dropped = true;
      if (listenClient === client) listenClient = null;
      client.end().catch(() => {});
      reconnectSoon();
    };
    client.on('error', drop);
    client.on('end', drop);
    await client.connect();
    for (const channel of listeners.keys()) await client.query(`LISTEN ${quoteIdent(channel)}`);
    listenClient = client;
    if (connectedBefore) for (const handler of reconnectHandlers) handler();
    connectedBefore = true;
    return client;
  };
  const ensureListener = async (): Promise<pg.Client> => {
    if (listenClient) return listenClient;
    connecting ??= connectListener().finally(() => {
      connecting = null;
    });
    return connecting;
  };

  const query = async <Row>(sql: string, params: readonly unknown[] = []): Promise<QueryResult<Row>> => {
    const result = await pool.query(sql, params as unknown[]);
    return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
  };

  return {
    kind: 'postgres',
    query,
    async exec(sql: string) {
      await pool.query(sql);
    },
    async transaction(work) {
      const client = await pool.connect();
      // A connection lost mid-transaction also emits 'error' on the checked-out client (the
      // pool only listens while it is idle): unheard, that would end the process. The failed
      // query rejects with it all the same, so the caller learns of it there.
      const ignoreLostConnection = () => {};
      client.on('error', ignoreLostConnection);
      const tx: Queryable = {
        async query<Row>(sql: string, params: readonly unknown[] = []) {
          const result = await client.query(sql, params as unknown[]);
          return { rows: result.rows as Row[], rowCount: result.rowCount ?? 0 };
        },
      };
      try {
        await client.query('BEGIN');
        const value = await work(tx);
        await client.query('COMMIT');
        client.removeListener('error', ignoreLostConnection);
        client.release();
        return value;
      } catch (error) {
        // A failed ROLLBACK means the connection is broken: drop it (still heard) instead of reusing it.
        await client.query('ROLLBACK').then(
          () => {
            client.removeListener('error', ignoreLostConnection);
            client.release();
          },
          (rollbackError: unknown) => client.release(rollbackError as Error),
        );
        throw error;
      }
    },
    async listen(channel, handler, options) {
      let set = listeners.get(channel);
      const isNew = !set;
      if (!set) listeners.set(channel, (set = new Set()));
      set.add(handler);
      const onReconnect = options?.onReconnect;
      if (onReconnect) reconnectHandlers.add(onReconnect);
      const client = await ensureListener();
      if (isNew) await client.query(`LISTEN ${quoteIdent(channel)}`);
      return async () => {
        set.delete(handler);
        if (onReconnect) reconnectHandlers.delete(onReconnect);
        if (set.size === 0) {
          listeners.delete(channel);
          if (listenClient) await listenClient.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => {});
        }
      };
    },
    async openLockSession() {
      const client = new pg.Client({ connectionString });
      const lostHandlers: Array<() => void> = [];
      let lost = false;
      const markLost = () => {
        if (lost) return;
        lost = true;
        for (const handler of lostHandlers) handler();
      };
      client.on('error', markLost);
      client.on('end', markLost);
      await client.connect();
      return {
        async tryLock(key: string) {
          const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [key]);
          return rows[0]?.locked === true;
        },
        async unlock(key: string) {
          await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [key]);
        },
        onLost(handler: () => void) {
          lostHandlers.push(handler);
        },
        async close() {
          lost = true;
          await client.end().catch(() => {});
        },
      };
    },
    async close() {
      closed = true;
      const client = listenClient;
      listenClient = null;
      await client?.end().catch(() => {});
      await pool.end();
    },
  };
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
