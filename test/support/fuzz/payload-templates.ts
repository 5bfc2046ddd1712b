/**
 * One valid payload per callable function and per JSON route that takes a body, aimed at the
 * victim's map. The fuzz suites mutate these, so the hostile part gets past the first checks.
 * Typed by the function table: a new function without a template does not compile.
 */
import type { FunctionName } from '../../../events/functions.js';

export interface Victim {
  mapId: string;
  historyId: string;
  email: string;
}

const documentOf = (title: string) => ({
  layers: [{ id: 'ground', name: 'Ground floor', file: null }],
  locations: [
    {
      id: 'cafe',
      title,
      about: 'Coffee',
      description: '<p>Open <b>daily</b></p>',
      layer: 'ground',
      position: { x: 10, y: 20 },
      groups: ['food'],
      link: 'https://example.com',
    },
  ],
  groups: [{ id: 'food', name: 'Food', color: '#4f46e5', legend: true }],
});

export const functionTemplates: Record<FunctionName, (victim: Victim) => unknown> = {
  createMap: () => ({ title: 'Fuzz mall', mapData: documentOf('Café') }),
  saveMap: (v) => ({ id: v.mapId, title: 'Renamed', mapData: documentOf('Café'), revision: '0' }),
  deleteMap: (v) => ({ id: v.mapId }),
  editMap: (v) => ({
    id: v.mapId,
    edits: [
      { type: 'LocationUpdated', id: 'cafe', changes: { title: 'Tea', description: '<p>x</p>' } },
      { type: 'LocationAdded', location: { id: 'shop', title: 'Shop', layer: 'ground', position: { x: 1, y: 2 } } },
      { type: 'LayerRenamed', id: 'ground', name: 'Level 0' },
    ],
  }),
  saveMapHistory: (v) => ({ mapId: v.mapId, name: 'Before the fuzz' }),
  deleteMapHistory: (v) => ({ mapId: v.mapId, historyMapId: v.historyId }),
  setMapHistoryName: (v) => ({ mapId: v.mapId, historyMapId: v.historyId, name: 'Renamed version' }),
  restoreMapHistory: (v) => ({ mapId: v.mapId, historyMapId: v.historyId }),
  adminUpdateMap: (v) => ({ id: v.mapId, title: 'Admin title', state: 1, subscribed: true }),
  startCheckout: () => ({ plan: 'basic', interval: 'monthly', quantity: 3 }),
  createPortalLink: () => ({ returnUrl: 'http://localhost:3000/maps#subscribe' }),
  publishMap: (v) => ({ mapId: v.mapId, plan: 'basic' }),
  unpublishMap: (v) => ({ mapId: v.mapId }),
  registerLicence: (v) => ({ mapId: v.mapId, purchaseCode: '8f6a2c1e-3b4d-4e5f-9a0b-1c2d3e4f5a6b' }),
  addMapComment: (v) => ({ mapId: v.mapId, anchor: { kind: 'point', x: 10, y: 20, layer: 'ground' }, body: 'Is this @Fuzz right?', mentions: ['x'] }),
  replyToMapComment: (v) => ({ mapId: v.mapId, threadId: v.historyId, body: 'A reply' }),
  editMapComment: (v) => ({ mapId: v.mapId, commentId: v.historyId, body: 'Changed' }),
  resolveMapCommentThread: (v) => ({ mapId: v.mapId, threadId: v.historyId }),
  reopenMapCommentThread: (v) => ({ mapId: v.mapId, threadId: v.historyId }),
  deleteMapComment: (v) => ({ mapId: v.mapId, commentId: v.historyId }),
  inviteToMap: (v) => ({ mapId: v.mapId, email: 'invitee@example.com', role: 'editor' }),
  acceptMapInvitation: () => ({ token: 'x'.repeat(43) }),
  revokeMapInvitation: (v) => ({ mapId: v.mapId, invitationId: 'invitation-1' }),
  setMapMemberRole: (v) => ({ mapId: v.mapId, uid: 'member-1', role: 'viewer' }),
  removeMapMember: (v) => ({ mapId: v.mapId, uid: 'member-1' }),
  leaveMap: (v) => ({ mapId: v.mapId }),
  setMapViewLink: (v) => ({ mapId: v.mapId, enabled: true }),
  setMapPublishMode: (v) => ({ mapId: v.mapId, mode: 'live' }),
  publishMapChanges: (v) => ({ mapId: v.mapId, revision: '0', at: '2030-01-01T09:00:00.000Z' }),
  cancelMapPublishSchedule: (v) => ({ mapId: v.mapId }),
  createApiToken: () => ({ name: 'Fuzz token', scopes: ['maps:read'], expiresInDays: 30 }),
  revokeApiToken: () => ({ tokenId: 'token-1' }),
  // A public address by its IP (no DNS in tests); only map.published, so nothing is sent meanwhile.
  createWebhook: (v) => ({ mapId: v.mapId, url: 'https://93.184.215.14/fuzz-hook', events: ['map.published'] }),
  deleteWebhook: () => ({ webhookId: 'webhook-1' }),
  listWebhooks: (v) => ({ mapId: v.mapId }),
  redeliverWebhook: () => ({ webhookId: 'webhook-1', deliveryId: 'delivery-1' }),
  sendTestWebhook: () => ({ webhookId: 'webhook-1' }),
  enableWebhook: () => ({ webhookId: 'webhook-1' }),
  setMapDataSource: (v) => ({ mapId: v.mapId, url: 'https://93.184.215.14/fuzz.csv', keyColumn: 'id', schedule: 'manual' }),
  syncMapNow: (v) => ({ mapId: v.mapId }),
  resolveSyncOverride: (v) => ({ mapId: v.mapId, overrides: [{ key: 'store-1', field: 'title', choice: 'keep' }] }),
};

/** Bodies (`{data}`'s content) of the JSON routes that take one, by URL pattern. */
export const routeBodyTemplates: Record<string, (victim: Victim) => unknown> = {
  '/api/auth/register': () => ({ email: 'fuzz@example.com', password: 'a long enough password', displayName: 'Fuzz' }),
  '/api/auth/login': (v) => ({ email: v.email, password: 'a wrong password here' }),
  '/api/auth/reset-request': (v) => ({ email: v.email }),
  '/api/auth/reset-password': () => ({ token: 'x'.repeat(43), password: 'another long password' }),
  '/api/auth/verify-email': () => ({ token: 'x'.repeat(43) }),
  '/api/auth/update-profile': () => ({ displayName: 'New name' }),
  '/api/auth/change-password': () => ({ currentPassword: 'a long enough password', newPassword: 'a new long password' }),
  '/api/auth/delete-account': () => ({ password: 'a long enough password' }),
  '/api/contact': () => ({ name: 'Ana', email: 'ana@example.com', topic: 'sales', message: 'Hello there, a question about maps.', website: '', renderedAt: 0, sentAt: 10_000 }),
  '/api/templates/:id/instantiate': () => ({ title: 'From a template' }),
};
