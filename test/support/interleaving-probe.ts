/**
 * Whether a paged read lets other work in between its pages (issue 26 item 8): a database whose
 * page reads are noted in order, and which sends "someone else's" query while the first page is
 * being read. A read that holds the database (or the event loop) from its first page to its last
 * answers the other query only after its last page.
 */
import type { Queryable } from '../../ports/database.js';

export interface InterleavingProbe {
  /** The database to give the paged read. */
  db: Queryable;
  /** 'page read' for each page the read took, 'other answered' where the other query's answer came. */
  order: string[];
  /** Once the other query has been answered. */
  settled(): Promise<unknown>;
}

export function interleavingProbe(db: Queryable, isPageRead: (sql: string) => boolean): InterleavingProbe {
  const order: string[] = [];
  let other: Promise<unknown> | null = null;
  return {
    order,
    settled: () => other ?? Promise.resolve(),
    db: {
      async query(sql, params) {
        const reading = db.query(sql, params);
        // Someone else's request comes in while the first page is being read.
        if (isPageRead(sql) && !other) other = db.query('SELECT 1 AS other').then(() => order.push('other answered'));
        const result = await reading;
        if (isPageRead(sql)) order.push('page read');
        return result as never;
      },
    },
  };
}
