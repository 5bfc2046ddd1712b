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
import { formatPosition } from '../../events/position.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import { listMapsByAuthor, type MapsByAuthorFilter, type MapsKey } from '../../projections/maps-by-author.js';
import { ErrorBody } from '../../events/function-results.js';
import { resultAt } from '../../events/http-api.js';
import { MapListItem } from '../../events/read-models.js';
import type { Database } from '../../ports/database.js';
import { typed } from '../http/zod-routes.js';

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
  .strictObject(
    {
      author: single('a uid').min(1, 'must not be empty').max(128, 'is too long').optional(),
      q: single('text').max(200, 'must be at most 200 characters').optional(),
      state: States.optional(),
      from: IsoDay.optional(),
      to: IsoDay.optional(),
      limit: Limit.optional(),
      cursor: Cursor.optional(),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? 'unknown query parameter (use author, q, state, from, to, limit, cursor)' : undefined) },
  )
  .superRefine((query, ctx) => {
    if (query.from && query.to && query.to.end.getTime() <= query.from.start.getTime()) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'must not be before from' });
    }
  });

export function encodeMapsCursor(key: MapsKey): string {
  return Buffer.from(JSON.stringify({ created: key.created, id: key.id }), 'utf8').toString('base64url');
}

const AdminMapsPage = resultAt(z.object({ items: z.array(MapListItem), next: z.string().nullable(), total: z.number().int() }));

export async function adminRoutes(scope: FastifyInstance, db: Database): Promise<void> {
  const app = typed(scope);
  app.get(
    '/api/admin/maps',
    {
      schema: { tags: ['admin'], querystring: AdminMapsQuery, response: { 200: AdminMapsPage, '4xx': ErrorBody } },
      preValidation: [scope.access.admin('Only admins may query every map.')],
    },
    async (request) => {
    const query = request.query;
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
    },
  );
}
