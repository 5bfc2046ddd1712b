/**
 * A map command's first attempt decides on the map as this process kept it after its own last
 * append, without reading the stream back (server/commands/map-commands.ts, issue 26 item 5).
 * When another process appended since (here: an append straight to the store, past this
 * process's commands), the append at the kept revision fails and the command decides again on
 * the stream as it is; a refusal or a no-op is only ever answered on the stream as it is.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document.js';
import { streams } from '../../events/streams.js';
import { getMapData } from '../../projections/map-data.js';
import { databaseTargets } from '../support/databases.js';
import { newEvent } from '../support/events.js';
import { call, createMapAs, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

describe.each(databaseTargets)('a map command on the state this process kept, on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target);
    owner = await registerUser(server);
  });
  afterAll(() => server?.close());

  const document = () => ({ ...emptyMapDocument(), locations: ['a', 'b'].map((id) => Location.parse({ id, title: id.toUpperCase(), layer: 'ground', position: { x: 10, y: 10 } })) });
  const edit = (user: TestUser, id: string, location: string, title: string) => call(server, 'editMap', { id, edits: [{ type: 'LocationUpdated', id: location, changes: { title } }] }, user);
  /** Another process's append: straight to the store, past this process's commands. */
  const appendElsewhere = async (id: string, events: ReturnType<typeof newEvent>[], after: bigint) =>
    server.services.store.append(streams.map(id), events, after);

  it("decides again on the stream as it is when another process appended since, keeping both changes", async () => {
    const id = await createMapAs(server, owner, 'Kept', document());
    const kept = BigInt((await edit(owner, id, 'a', 'A here')).body.result.revision);
    await appendElsewhere(id, [newEvent('MapSaved', { mapId: id, title: 'Renamed elsewhere', edited: new Date().toISOString() }, owner.uid)], kept);
    const answer = await edit(owner, id, 'b', 'B here');
    expect(answer.status).toBe(200);
    expect(answer.body.result).toEqual({ revision: String(kept + 2n) });
    await projected(server, answer.body.position);
    const data = await getMapData(server.database.db, id);
    expect(data).toMatchObject({ title: 'Renamed elsewhere', revision: String(kept + 2n) });
    expect((data!.data as MapDocument).locations.map((location) => location.title)).toEqual(['A here', 'B here']);
  });

  it('never refuses on the kept state: a member who joined through another process may edit at once', async () => {
    const id = await createMapAs(server, owner, 'Shared elsewhere', document());
    const kept = BigInt((await edit(owner, id, 'a', 'A here')).body.result.revision);
    const member = await registerUser(server);
    const invitationId = randomUUID();
    const now = new Date().toISOString();
    await appendElsewhere(id, [
      newEvent('MapMemberInvited', { mapId: id, invitationId, email: 'member@example.com', role: 'editor', tokenHash: 'a'.repeat(64), invitedBy: owner.uid, invited: now, expires: new Date(Date.now() + 86_400_000).toISOString() }, owner.uid),
      newEvent('MapInvitationAccepted', { mapId: id, invitationId, uid: member.uid, displayName: 'Member', email: 'member@example.com', role: 'editor', accepted: now }, member.uid),
    ], kept);
    const answer = await edit(member, id, 'b', 'B by the member');
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.result).toEqual({ revision: String(kept + 3n) });
  });
});
