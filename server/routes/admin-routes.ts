/**
 * Admin-only queries (spec §6: an admin "loads maps by author instead of by owner").
 *
 * `GET /api/admin/maps?author=&q=&state=&from=&to=&limit=&cursor=` answers
 * `{result: {items: MapListItem[], next: string | null, total: number}, position}`:
 * - `author`: the author's uid, exactly; `q`: text the title contains, any case;
 * - `state`: map state numbers (spec §4), repeated (`state=0&state=1`) or comma-separated;
 * - `from`, `to`: ISO dates (`2025-01-31`, whole days, both included) or date-times on `created`;
 * - `limit`: 1 to 100 (25 when absent); `cursor`: the `next` of the previous page (opaque).
 * Newest created first. Signed out: 401; signed in but not a verified admin: 403; a bad
 * parameter: 400 invalid-argument naming it.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { DomainError } from '../../events/errors.js';
import { formatPosition } from '../../events/position.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import { listMapsByAuthor, type MapsByAuthorFilter, type MapsKey } from '../../projections/maps-by-author.js';
import type { Database } from '../db/database.js';

export const ADMIN_MAPS_DEFAULT_LIMIT = 25;
export const ADMIN_MAPS_MAX_LIMIT = 100;
const MAX_STATES = 20;

const DAY_MS = 24 * 60 * 60 * 1000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** One value of a query parameter: a repeated one arrives as an array and is refused. */
const single = (what: string) => z.string({ error: `must be given once, as ${what}` });

/** An ISO date (a whole day, UTC) or date-time: the instant it starts and the one after it ends. */
const IsoDay = single('an ISO date').transform((text, ctx) => {
  const dateOnly = DATE_ONLY.test(text);
  const valid = dateOnly ? z.iso.date().safeParse(text).success : z.iso.datetime({ offset: true }).safeParse(text).success;
  if (!valid) {
    ctx.addIssue({ code: 'custom', message: 'must be an ISO date (2025-01-31) or date-time (2025-01-31T12:00:00Z)' });
    return z.NEVER;
  }
  const start = new Date(dateOnly ? `${text}T00:00:00Z` : text);
  return { start, end: new Date(start.getTime() + (dateOnly ? DAY_MS : 1)) };
});

const States = z
  .union([z.string(), z.array(z.string())])
  .transform((value, ctx) => {
    const parts = (Array.isArray(value) ? value : [value]).flatMap((part) => part.split(',')).map((part) => part.trim());
    if (parts.length > MAX_STATES) {
      ctx.addIssue({ code: 'custom', message: `at most ${MAX_STATES} states` });
      return z.NEVER;
    }
    const states: number[] = [];
    for (const part of parts) {
      if (!/^-?\d{1,6}$/.test(part)) {
        ctx.addIssue({ code: 'custom', message: `must be whole numbers (0, 1, 2, 3, 9), not "${part.slice(0, 20)}"` });
        return z.NEVER;
      }
      states.push(Number(part));
    }
    return [...new Set(states)];
  });

const Limit = single('a number').transform((text, ctx) => {
  const limit = /^\d{1,3}$/.test(text) ? Number(text) : NaN;
  if (!(limit >= 1 && limit <= ADMIN_MAPS_MAX_LIMIT)) {
    ctx.addIssue({ code: 'custom', message: `must be a whole number from 1 to ${ADMIN_MAPS_MAX_LIMIT}` });
    return z.NEVER;
  }
  return limit;
});

const CursorKey = z.object({ created: z.iso.datetime(), id: z.string().min(1).max(128) }).strict();

const Cursor = single('the next value of the previous page').transform((text, ctx): MapsKey => {
  try {
    if (!/^[A-Za-z0-9_-]{1,400}$/.test(text)) throw new Error('not base64url');
    return CursorKey.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    ctx.addIssue({ code: 'custom', message: 'is not a cursor this query gave out' });
    return z.NEVER;
  }
});

export const AdminMapsQuery = z
  .object({
    author: single('a uid').min(1, 'must not be empty').max(128, 'is too long'),
    q: single('text').max(200, 'must be at most 200 characters'),
    state: States,
    from: IsoDay,
    to: IsoDay,
    limit: Limit,
    cursor: Cursor,
  })
  .partial()
  .strict()
  .superRefine((query, ctx) => {
    if (query.from && query.to && query.to.end.getTime() <= query.from.start.getTime()) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    }
  });

export function encodeMapsCursor(key: MapsKey): string {
  return Buffer.from(JSON.stringify({ created: key.created, id: key.id }), 'utf8').toString('base64url');
}

/** The query string, checked: a bad parameter is an invalid-argument error that names it. */
function parseQuery(raw: unknown) {
  const parsed = AdminMapsQuery.safeParse(raw ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue?.code === 'unrecognized_keys') {
    throw new DomainError('invalid-argument', `${issue.keys.join(', ')}: unknown query parameter (use author, q, state, from, to, limit, cursor)`);
  }
  const field = issue?.path[0] !== undefined ? String(issue.path[0]) : 'query';
  throw new DomainError('invalid-argument', `${field}: ${issue?.message ?? 'is not valid'}`);
}

export async function adminRoutes(app: FastifyInstance, db: Database): Promise<void> {
  app.get('/api/admin/maps', async (request) => {
    const principal = request.principal;
    if (!principal) throw new DomainError('unauthenticated', 'Unauthenticated');
    if (!principal.admin) throw new DomainError('permission-denied', 'Only admins may query every map.');
    // ADMIN_EMAILS names addresses: the claim counts once the address is proven.
    if (!principal.emailVerified) throw new DomainError('permission-denied', 'Verify your email address first.');

    const query = parseQuery(request.query);
    const filter: MapsByAuthorFilter = {
      ...(query.author !== undefined ? { author: query.author } : {}),
      ...(query.q !== undefined ? { q: query.q } : {}),
      ...(query.state !== undefined ? { states: query.state } : {}),
      ...(query.from !== undefined ? { from: query.from.start } : {}),
      ...(query.to !== undefined ? { before: query.to.end } : {}),
    };
    // The checkpoint first: the answer reflects at least this position.
    const checkpoint = await readCheckpoint(db, 'maps_list');
    const position = checkpoint ? formatPosition(checkpoint.position) : '-1:-1';
    const page = await listMapsByAuthor(db, filter, { limit: query.limit ?? ADMIN_MAPS_DEFAULT_LIMIT, after: query.cursor ?? null });
    return { result: { items: page.items, next: page.next ? encodeMapsCursor(page.next) : null, total: page.total }, position };
  });
}
