import { describe, expect, it } from 'vitest';
import { can, MAP_ACTIONS, requireCan, roleOf, type MapAccessFacts } from '../../events/map-access';
import type { Principal } from '../../events/principal';

const person = (uid: string, admin = false): Principal => ({ uid, email: `${uid}@example.com`, emailVerified: true, displayName: uid, admin, stripeRole: null });
const facts: MapAccessFacts = { ownerUid: 'ada', members: { ben: 'editor', cy: 'viewer' } };

describe('the map access policy', () => {
  it('gives each role its actions, and nothing to strangers or nobody', () => {
    const table = Object.fromEntries(
      [['owner', person('ada')], ['editor', person('ben')], ['viewer', person('cy')], ['stranger', person('dee')], ['admin', person('root', true)], ['anonymous', null]].map(
        ([name, principal]) => [name as string, MAP_ACTIONS.filter((action) => can(principal as Principal | null, facts, action))],
      ),
    );
    expect(table).toEqual({
      owner: ['view', 'comment', 'edit', 'manage'],
      editor: ['view', 'comment', 'edit', 'leave'],
      viewer: ['view', 'comment', 'leave'],
      stranger: [],
      admin: ['view', 'comment', 'edit', 'manage'],
      anonymous: [],
    });
  });

  it('lets a view link view, and only view', () => {
    expect(MAP_ACTIONS.filter((action) => can(null, facts, action, { viaViewLink: true }))).toEqual(['view']);
    expect(MAP_ACTIONS.filter((action) => can(person('dee'), facts, action, { viaViewLink: true }))).toEqual(['view']);
  });

  it('reads a member only from the members themselves, never from the prototype', () => {
    expect(roleOf(person('constructor'), facts)).toBeNull();
    expect(roleOf(person('__proto__'), facts)).toBeNull();
  });

  it('says why in the catalogue’s words', () => {
    expect(() => requireCan(null, facts, 'view')).toThrow('Unauthenticated');
    expect(() => requireCan(person('dee'), facts, 'view')).toThrow('You do not have access to this map.');
    expect(() => requireCan(person('cy'), facts, 'edit')).toThrow('You can view this map but not change it');
    expect(() => requireCan(person('ben'), facts, 'manage')).toThrow('Only the map’s owner can do this.');
    expect(() => requireCan(person('ada'), facts, 'leave')).toThrow('The owner cannot leave their own map.');
  });
});
