/**
 * The objects of the local test Stripe (checkout sessions, customers, subscriptions, portal
 * sessions), kept in the database so a restart or a second process sees them.
 */
import type { Database, Queryable } from '../../../ports/database.js';

export const LOCAL_STRIPE_SCHEMA = `
CREATE TABLE IF NOT EXISTS local_stripe_objects (
  id text PRIMARY KEY,
  kind text NOT NULL,
  data jsonb NOT NULL,
  idempotency_key text UNIQUE,
  created timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX IF NOT EXISTS local_stripe_objects_kind ON local_stripe_objects (kind);
`;

export type LocalObject = Record<string, unknown> & { id: string; object: string };

export class LocalStripeStore {
  private constructor(private readonly db: Database) {}

  static async open(db: Database): Promise<LocalStripeStore> {
    await db.exec(LOCAL_STRIPE_SCHEMA);
    return new LocalStripeStore(db);
  }

  async get<T extends LocalObject>(id: string): Promise<T | null> {
    const { rows } = await this.db.query<{ data: T }>('SELECT data FROM local_stripe_objects WHERE id = $1', [id]);
    return rows[0]?.data ?? null;
  }

  async byIdempotencyKey<T extends LocalObject>(key: string): Promise<T | null> {
    const { rows } = await this.db.query<{ data: T }>('SELECT data FROM local_stripe_objects WHERE idempotency_key = $1', [key]);
    return rows[0]?.data ?? null;
  }

  async put(object: LocalObject, idempotencyKey: string | null = null, tx: Queryable = this.db): Promise<void> {
    await tx.query(
      `INSERT INTO local_stripe_objects (id, kind, data, idempotency_key) VALUES ($1, $2, $3, $4)
       ON CONFLICT (id) DO UPDATE SET data = EXCLUDED.data`,
      [object.id, object.object, JSON.stringify(object), idempotencyKey],
    );
  }

  async subscriptionsOf(customerId: string): Promise<LocalObject[]> {
    const { rows } = await this.db.query<{ data: LocalObject }>(
      "SELECT data FROM local_stripe_objects WHERE kind = 'subscription' AND data->>'customer' = $1 ORDER BY created",
      [customerId],
    );
    return rows.map((row) => row.data);
  }
}
