/**
 * The auth machine on its own (no React): its I/O replaced by fromPromise actors the test
 * controls, driven with createActor and waitFor.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, waitFor } from 'xstate';
import type { Principal } from '../../events/principal';
import type { MapListItem } from '../../events/read-models';
import {
  authMachineWith,
  loginWith,
  logoutWith,
  refreshWith,
  registerWith,
  statusOf,
  type AuthServices,
} from '../../client/src/features/auth/auth-machine';
import { ApiError } from '../../client/src/lib/api';
import { principal } from './support/fakes';

afterEach(() => vi.restoreAllMocks());

function mapItem(id: string): MapListItem {
  return {
    id,
    title: `Map ${id}`,
    uid: 'user-1',
    author: 'user-1',
    created: '2026-01-01T00:00:00.000Z',
    edited: '2026-01-01T00:00:00.000Z',
    state: 0,
    subscribed: false,
    metrics: { layerCount: 0, locationCount: 0 },
    history: [],
  };
}

/** Services where `signedIn` is who the server says is signed in; each call is a spy. */
function services(signedIn: Principal | null, overrides: Partial<AuthServices> = {}) {
  const base: AuthServices = {
    checkSession: vi.fn(async () => signedIn),
    login: vi.fn(async () => principal()),
    register: vi.fn(async () => ({ user: principal() })),
    confirmSignUp: vi.fn(async () => principal()),
    logout: vi.fn(async () => {}),
    endSession: vi.fn(async () => {}),
    refreshToken: vi.fn(async () => ({ admin: true, stripeRole: 'pro' })),
    loadMaps: vi.fn(async () => [mapItem('a'), mapItem('b')]),
    loadSubscriptions: vi.fn(async () => [{ status: 'active' }]),
  };
  return { ...base, ...overrides };
}

function start(given: AuthServices) {
  const actor = createActor(authMachineWith(given));
  actor.start();
  return actor;
}

const ready = (actor: ReturnType<typeof start>) => waitFor(actor, (s) => s.matches({ signedIn: 'ready' }), { timeout: 2000 });

describe('the auth machine', () => {
  it('starts checking, then for a signed-in user refreshes the token, sets admin and role, and loads maps and subscriptions', async () => {
    const given = services(principal({ admin: false, stripeRole: null }));
    const actor = start(given);
    expect(statusOf(actor.getSnapshot())).toBe('loading');
    expect(actor.getSnapshot().context.loaded).toBe(false);

    const snapshot = await ready(actor);

    expect(statusOf(snapshot)).toBe('signedIn');
    expect(given.refreshToken).toHaveBeenCalledWith(expect.objectContaining({ uid: 'user-1' }));
    // The claims come from the refreshed token, not the first answer.
    expect(snapshot.context.admin).toBe(true);
    expect(snapshot.context.stripeRole).toBe('pro');
    expect(snapshot.context.maps.map((m) => m.id)).toEqual(['a', 'b']);
    expect(snapshot.context.subscriptions).toEqual([{ status: 'active' }]);
    expect(snapshot.context.loaded).toBe(true);
    expect(snapshot.context.user?.uid).toBe('user-1');
    actor.stop();
  });

  it('starts signed out when nobody is signed in, and loads nothing', async () => {
    const given = services(null);
    const actor = start(given);
    const snapshot = await waitFor(actor, (s) => s.matches('signedOut'));
    expect(snapshot.context).toMatchObject({ user: null, maps: [], loaded: false, admin: false });
    expect(given.loadMaps).not.toHaveBeenCalled();
    actor.stop();
  });

  it('treats a failed session check (server unreachable) as signed out', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const actor = start(services(null, { checkSession: () => Promise.reject(new ApiError('internal', 'offline', 0)) }));
    await waitFor(actor, (s) => s.matches('signedOut'));
    actor.stop();
  });

  it('without a billing actor, subscriptions default to none', async () => {
    const { loadSubscriptions: _unused, ...rest } = services(principal());
    const actor = start(rest);
    expect((await ready(actor)).context.subscriptions).toEqual([]);
    actor.stop();
  });

  it('logout clears the maps and resets the loaded flag', async () => {
    const given = services(principal());
    const actor = start(given);
    await ready(actor);

    const error = await logoutWith(actor);

    expect(error).toBeNull();
    expect(given.logout).toHaveBeenCalledTimes(1);
    const { context } = actor.getSnapshot();
    expect(statusOf(actor.getSnapshot())).toBe('signedOut');
    expect(context).toMatchObject({ user: null, maps: [], subscriptions: [], loaded: false, admin: false, stripeRole: null });
    actor.stop();
  });

  it('a logout failure is returned (not thrown) and the user stays signed in with their maps', async () => {
    const failure = new ApiError('unavailable', 'Try again shortly.', 503);
    const actor = start(services(principal(), { logout: () => Promise.reject(failure) }));
    await ready(actor);

    const error = await logoutWith(actor);

    expect(error).toBe(failure);
    expect(actor.getSnapshot().matches({ signedIn: 'ready' })).toBe(true);
    expect(actor.getSnapshot().context.maps).toHaveLength(2);
    expect(actor.getSnapshot().context.loaded).toBe(true);
    actor.stop();
  });

  it('a login failure is returned (not thrown) and the visitor stays signed out', async () => {
    const failure = new ApiError('unauthenticated', 'Incorrect email or password.', 401);
    const given = services(null, { login: vi.fn(() => Promise.reject(failure)) });
    const actor = start(given);
    await waitFor(actor, (s) => s.matches('signedOut'));

    const error = await loginWith(actor, 'avery@example.com', 'nope');

    expect(error).toBe(failure);
    expect(given.login).toHaveBeenCalledWith('avery@example.com', 'nope');
    expect(statusOf(actor.getSnapshot())).toBe('signedOut');
    expect(actor.getSnapshot().context.user).toBeNull();
    expect(given.loadMaps).not.toHaveBeenCalled();
    actor.stop();
  });

  it('a thrown non-API error comes back as an ApiError', async () => {
    const actor = start(services(null, { login: () => Promise.reject(new TypeError('fetch failed')) }));
    await waitFor(actor, (s) => s.matches('signedOut'));
    const error = await loginWith(actor, 'a@example.com', 'x');
    expect(error).toBeInstanceOf(ApiError);
    expect(error?.message).toBe('fetch failed');
    actor.stop();
  });

  it('login signs in and runs the signed-in start (token, claims, maps)', async () => {
    const given = services(null);
    const actor = start(given);
    await waitFor(actor, (s) => s.matches('signedOut'));

    expect(await loginWith(actor, 'avery@example.com', 'right')).toBeNull();
    const snapshot = await ready(actor);
    expect(snapshot.context.loaded).toBe(true);
    expect(given.refreshToken).toHaveBeenCalledTimes(1);
    expect(given.loadMaps).toHaveBeenCalledTimes(1);
    actor.stop();
  });

  it('register that needs an e-mailed code (Clerk) stays signed out and remembers the address', async () => {
    const actor = start(services(null, { register: async () => ({ verifyEmail: 'new@example.com' }) }));
    await waitFor(actor, (s) => s.matches('signedOut'));

    const error = await registerWith(actor, { displayName: 'New', email: 'new@example.com', password: 'long enough' });

    expect(error).toBeNull();
    expect(statusOf(actor.getSnapshot())).toBe('signedOut');
    expect(actor.getSnapshot().context.pendingSignUp).toEqual({ email: 'new@example.com' });
    actor.stop();
  });

  it('refresh signs out when the server says nobody is signed in any more', async () => {
    let current: Principal | null = principal();
    const actor = start(services(null, { checkSession: async () => current }));
    await ready(actor);

    current = null;
    await refreshWith(actor);

    expect(statusOf(actor.getSnapshot())).toBe('signedOut');
    expect(actor.getSnapshot().context).toMatchObject({ maps: [], loaded: false });
    actor.stop();
  });

  it('a failed maps load is logged and kept as the error; loaded stays false', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const actor = start(services(principal(), { loadMaps: () => Promise.reject(new ApiError('permission-denied', 'Verify your email address first.', 403)) }));
    const snapshot = await ready(actor);
    expect(snapshot.context.loaded).toBe(false);
    expect(snapshot.context.error?.message).toBe('Verify your email address first.');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('loading the maps'), 'Verify your email address first.');
    actor.stop();
  });

  it('takes fresh maps from the live topic, and a user the server returned', async () => {
    const actor = start(services(principal()));
    await ready(actor);
    actor.send({ type: 'MAPS', maps: [mapItem('c')] });
    actor.send({ type: 'USER', user: principal({ displayName: 'Kim Park', emailVerified: true }) });
    const { context } = actor.getSnapshot();
    expect(context.maps.map((m) => m.id)).toEqual(['c']);
    expect(context.user?.displayName).toBe('Kim Park');
    actor.stop();
  });
});
