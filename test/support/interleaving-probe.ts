/**
 * Whether a paged read lets other work in between its pages (issue 26 item 8): a database whose
 * page reads are noted in order, and which sends "someone else's" query while the first page is
 * being read. A read that holds the database (or the event loop) from its first page to its last
 * answers the other query only after its last page.
 *
 * Each later page waits (up to OTHER_GRACE_MS) for the other query's answer before it is handed
 * back: on PostgreSQL the other query goes on another pooled connection, which a busy machine may
 * open after the read's few pages are done (a race CI lost once). A read that lets the other query
 * in sees it answered at once; one that holds the database still sees it answered only after its
 * last page, after the grace has run out, so the order still tells the two apart. The grace is
 * waited once in all: a read that holds the database fails on the order, not on the test's timeout.
 */
import type { Queryable } from '../../ports/database.js';

const OTHER_GRACE_MS = 5_000;

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
  let graceOver = false;
  return {
    order,
    settled: () => other ?? Promise.resolve(),
    db: {
      async query(sql, params) {
        const reading = db.query(sql, params);
        const first = !other;
        // Someone else's request comes in while the first page is being read.
        if (isPageRead(sql) && first) other = db.query('SELECT 1 AS other').then(() => order.push('other answered'));
        const result = await reading;
        if (isPageRead(sql) && !first && other && !graceOver) graceOver = !(await answeredWithinGrace(other));
        if (isPageRead(sql)) order.push('page read');
        return result as never;
      },
    },
  };
}

/** Whether the other query was answered before the grace ran out (else the read held it back). */
async function answeredWithinGrace(other: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const answered = await Promise.race([other.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), OTHER_GRACE_MS)))]);
  clearTimeout(timer);
  return answered;
}
