/** Sharing a map in server tests as people do it: an invitation mailed to the outbox, its link accepted. */
import { call, projected, type TestServer, type TestUser } from './test-server.js';

/** The token of the newest invitation link mailed to `email`. */
export async function invitationTokenFromOutbox(server: TestServer, email: string): Promise<string> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const messages = await server.services.outbox!.list(200);
    for (const message of messages) {
      const token = message.to === email ? /\/invitations\/([\w-]+)/.exec(message.text)?.[1] : undefined;
      if (token) return token;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`No invitation mailed to ${email}`);
}

/** Invites `email` to the map as `role` (the owner's call); answers the invitation id and the link's token, projected. */
export async function invite(server: TestServer, owner: TestUser, mapId: string, email: string, role: 'editor' | 'viewer') {
  const invited = await call(server, 'inviteToMap', { mapId, email, role }, owner);
  if (invited.status !== 200) throw new Error(`inviteToMap failed: ${invited.status} ${JSON.stringify(invited.body)}`);
  await projected(server, invited.body.position);
  const token = await invitationTokenFromOutbox(server, email);
  return { invitationId: invited.body.result.invitationId as string, token };
}

/** `member` joins the map as `role` through a mailed invitation, projected. */
export async function share(server: TestServer, owner: TestUser, mapId: string, member: TestUser & { email: string }, role: 'editor' | 'viewer'): Promise<void> {
  const { token } = await invite(server, owner, mapId, member.email, role);
  const accepted = await call(server, 'acceptMapInvitation', { token }, member);
  if (accepted.status !== 200 || !accepted.body.position) throw new Error(`acceptMapInvitation failed: ${accepted.status} ${JSON.stringify(accepted.body)}`);
  await projected(server, accepted.body.position);
}
