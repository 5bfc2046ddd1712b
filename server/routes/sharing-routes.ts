/**
 * Who a map is shared with (`GET /api/maps/{id}/members`: its owner, members and pending
 * invitations, for whoever may view it; the view link only for those who may manage it) and
 * the maps shared with the caller (`GET /api/maps/shared`, "Shared with me" beside their own).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ErrorBody } from '../../events/function-results.js';
import { MapIdParams, resultOf } from '../../events/http-api.js';
import { can, roleOf } from '../../events/map-access.js';
import { MapMembers, SharedMapItem } from '../../events/sharing-api.js';
import { mapsSharedWith, membersOf, ownerNameOf, pendingInvitations } from '../../projections/map-members.js';
import type { Queryable } from '../../ports/database.js';
import { mapAccessHook } from '../access/map-access-hook.js';
import type { PeopleDirectory } from '../access/people.js';
import { viewLinkUrl, type ViewLinkKeys } from '../access/view-link-keys.js';
import { requirePrincipal } from '../http/access-hooks.js';
import { typed } from '../http/zod-routes.js';

export interface SharingRouteDeps {
  db: Queryable;
  viewLinkKeys: ViewLinkKeys;
  publicUrl: string;
  people: PeopleDirectory;
}

export async function sharingRoutes(scope: FastifyInstance, deps: SharingRouteDeps): Promise<void> {
  const app = typed(scope);
  const { db } = deps;
  const tags = ['sharing'];

  app.get(
    '/api/maps/shared',
    { schema: { tags, response: { 200: resultOf(z.array(SharedMapItem)), '4xx': ErrorBody } }, preValidation: [scope.access.signedIn] },
    async (request) => {
      const rows = await mapsSharedWith(db, requirePrincipal(request).uid);
      const people = await deps.people([...new Set(rows.map((row) => row.ownerUid))]);
      const result: SharedMapItem[] = rows.map((row) => ({
        id: row.id,
        title: row.title,
        owner: { uid: row.ownerUid, displayName: people.get(row.ownerUid)?.displayName ?? row.ownerName },
        role: row.role,
        state: row.state,
        edited: row.edited,
        metrics: { layerCount: row.layerCount, locationCount: row.locationCount },
      }));
      return { result };
    },
  );

  app.get(
    '/api/maps/:id/members',
    {
      schema: { tags, params: MapIdParams, response: { 200: resultOf(MapMembers), '4xx': ErrorBody } },
      preValidation: [scope.access.signedIn],
      preHandler: [mapAccessHook(db, 'view')],
    },
    async (request) => {
      const principal = requirePrincipal(request);
      const access = request.mapAccess!;
      const mapId = request.params.id;
      const now = request.server.clock.now();
      const [members, invitations, ownerName] = await Promise.all([membersOf(db, mapId), pendingInvitations(db, mapId, now), ownerNameOf(db, mapId)]);
      const owner = access.facts.ownerUid;
      const people = await deps.people([owner, ...members.map((member) => member.uid)]);
      const manages = can(principal, access.facts, 'manage');
      const key = manages ? await deps.viewLinkKeys.currentKey(mapId) : null;
      const role = roleOf(principal, access.facts);
      const result: MapMembers = {
        mapId,
        owner: { uid: owner, displayName: people.get(owner)?.displayName ?? ownerName ?? '', email: people.get(owner)?.email ?? '' },
        members: members.map((member) => ({
          uid: member.uid,
          displayName: people.get(member.uid)?.displayName ?? member.displayName,
          email: people.get(member.uid)?.email ?? member.email,
          role: member.role,
          since: member.since,
        })),
        invitations: invitations.map(({ invitationId, email, role: invitedAs, invitedBy, invited, expires }) => ({ invitationId, email, role: invitedAs, invitedBy, invited, expires })),
        viewLink: key ? viewLinkUrl(deps.publicUrl, mapId, key) : null,
        yourRole: role,
      };
      return { result };
    },
  );
}
