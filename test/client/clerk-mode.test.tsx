/**
 * Clerk mode, with Clerk replaced at its boundary: client/src/lib/clerk.tsx (the one module
 * that imports @clerk/react) is mocked, so the app's own Clerk code runs unchanged above fakes
 * of Clerk's provider and hooks.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthConfig } from '../../client/src/features/auth/api/auth-api';
import { createLiveClient, type LiveSocket } from '../../client/src/lib/live-client';
import { authRoutes, principal, renderApp, stubFetch } from './support/fakes';

const clerk = vi.hoisted(() => {
  const state = {
    signedIn: false,
    tokens: 0,
    getToken: null as unknown as (options?: { skipCache?: boolean }) => Promise<string | null>,
    signOut: null as unknown as () => Promise<void>,
    signIn: null as unknown as {
      status: string;
      password: (params: { identifier: string; password: string }) => Promise<{ error: unknown }>;
      finalize: () => Promise<{ error: unknown }>;
      sso: (params: { strategy: string; redirectUrl: string; redirectCallbackUrl: string }) => Promise<{ error: unknown }>;
    },
  };
  return state;
});

vi.mock('../../client/src/lib/clerk', () => ({
  ClerkProvider: ({ children }: { children: ReactNode }) => children,
  HandleSSOCallback: () => null,
  useAuth: () => ({
    isLoaded: true,
    isSignedIn: clerk.signedIn,
    userId: clerk.signedIn ? 'clerk_user_1' : null,
    getToken: clerk.getToken,
    signOut: clerk.signOut,
  }),
  useSignIn: () => ({ signIn: clerk.signIn, errors: {}, fetchStatus: 'idle' }),
  useSignUp: () => ({ signUp: {}, errors: {}, fetchStatus: 'idle' }),
}));

const CLERK: AuthConfig = { auth: 'clerk', clerkPublishableKey: 'pk_test_ZXhhbXBsZS5jbGVyay5hY2NvdW50cy5kZXYk' };

beforeEach(() => {
  clerk.signedIn = false;
  clerk.tokens = 0;
  clerk.getToken = vi.fn(async () => (clerk.signedIn ? `clerk-token-${++clerk.tokens}` : null));
  clerk.signOut = vi.fn(async () => {
    clerk.signedIn = false;
  });
  clerk.signIn = {
    status: 'needs_first_factor',
    password: vi.fn(async () => {
      clerk.signIn.status = 'complete';
      return { error: null };
    }),
    finalize: vi.fn(async () => {
      clerk.signedIn = true;
      return { error: null };
    }),
    sso: vi.fn(async () => ({ error: null })),
  };
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Clerk mode', () => {
  it('the login page offers "Continue with Google", which starts Clerk\'s Google OAuth', async () => {
    stubFetch(authRoutes(null));
    renderApp('/login', undefined, { authConfig: CLERK });

    const google = await screen.findByRole('button', { name: 'Continue with Google' });
    expect(screen.getByRole('form', { name: 'Log in' })).toBeInTheDocument();
    await userEvent.click(google);

    expect(clerk.signIn.sso).toHaveBeenCalledWith(
      expect.objectContaining({ strategy: 'oauth_google', redirectCallbackUrl: expect.stringMatching(/\/sso-callback$/) }),
    );
  });

  it('the local mode has no Google option', async () => {
    stubFetch(authRoutes(null));
    renderApp('/login');
    await screen.findByRole('form', { name: 'Log in' });
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).not.toBeInTheDocument();
  });

  it('API calls carry the bearer token from Clerk\'s getToken(), and no cookie', async () => {
    clerk.signedIn = true;
    const { requests, fetch } = stubFetch(authRoutes(principal()));
    renderApp('/account', undefined, { authConfig: CLERK });

    expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
    const me = requests.filter((r) => r.path === '/api/auth/me');
    expect(me.length).toBeGreaterThan(0);
    for (const request of requests) expect(request.headers.authorization).toMatch(/^Bearer clerk-token-\d+$/);
    for (const [, init] of fetch.mock.calls) expect(init?.credentials).toBe('omit');
    // The session start asks Clerk for a fresh token (the claims come from it).
    expect(clerk.getToken).toHaveBeenCalledWith({ skipCache: true });
    // Clerk accounts change their password through Clerk: no password form here.
    expect(screen.queryByRole('form', { name: 'Change password' })).not.toBeInTheDocument();
  });

  it('logs in with email and password through Clerk, then the server knows the user by the token', async () => {
    const { requests } = stubFetch(authRoutes(principal({ displayName: 'Kim Park' })));
    const { router } = renderApp({ pathname: '/login', state: { from: { pathname: '/account' } } }, undefined, { authConfig: CLERK });

    await userEvent.type(await screen.findByLabelText('Email'), 'kim@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/account'));
    expect(clerk.signIn.password).toHaveBeenCalledWith({ identifier: 'kim@example.com', password: 'correct horse' });
    expect(clerk.signIn.finalize).toHaveBeenCalled();
    expect(requests.some((r) => r.path === '/api/auth/login')).toBe(false);
    const lastMe = requests.filter((r) => r.path === '/api/auth/me').at(-1);
    expect(lastMe?.headers.authorization).toMatch(/^Bearer /);
    expect(await within(screen.getByRole('banner')).findByRole('link', { name: /Account settings for Kim Park/ })).toBeInTheDocument();
  });

  it('shows Clerk\'s own error message when the password is wrong', async () => {
    clerk.signIn.password = vi.fn(async () => ({
      error: Object.assign(new Error('Password is incorrect'), { errors: [{ longMessage: 'Password is incorrect. Try again, or use another method.' }] }),
    }));
    stubFetch(authRoutes(null));
    renderApp('/login', undefined, { authConfig: CLERK });

    await userEvent.type(await screen.findByLabelText('Email'), 'kim@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong one');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Password is incorrect. Try again, or use another method.');
  });

  it('logging out signs out of Clerk', async () => {
    clerk.signedIn = true;
    stubFetch(authRoutes(principal()));
    const { router } = renderApp('/maps', undefined, { authConfig: CLERK });
    await userEvent.click(await screen.findByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(clerk.signOut).toHaveBeenCalled());
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await within(screen.getByRole('banner')).findByRole('link', { name: 'Sign up' })).toBeInTheDocument();
  });
});

/** A socket the test opens by hand, recording what the client sends. */
class FakeSocket implements LiveSocket {
  static last: FakeSocket | null = null;
  readyState = 0;
  sent: unknown[] = [];
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string) {
    FakeSocket.last = this;
  }
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
}

describe('the live client in Clerk mode', () => {
  it('sends {type: "auth", token} first after open, and a fresh token every 50 s', async () => {
    vi.useFakeTimers();
    try {
      let n = 0;
      const client = createLiveClient({ url: 'ws://test/api/live', createSocket: (url) => new FakeSocket(url), getToken: async () => `token-${++n}` });
      client.connect();
      const socket = FakeSocket.last!;
      socket.open();
      await vi.advanceTimersByTimeAsync(0);
      expect(socket.sent).toEqual([{ v: 2, type: 'auth', token: 'token-1' }]);

      await vi.advanceTimersByTimeAsync(50_000);
      expect(socket.sent.at(-1)).toEqual({ v: 2, type: 'auth', token: 'token-2' });
      client.disconnect();
    } finally {
      vi.useRealTimers();
    }
  });

  it('sends no auth message in the local mode (the cookie authenticates)', async () => {
    const client = createLiveClient({ url: 'ws://test/api/live', createSocket: (url) => new FakeSocket(url) });
    client.connect();
    FakeSocket.last!.open();
    await Promise.resolve();
    expect(FakeSocket.last!.sent).toEqual([]);
    client.disconnect();
  });

  it('the app\'s own live client sends the Clerk token after the socket opens', async () => {
    clerk.signedIn = true;
    vi.stubGlobal('WebSocket', FakeSocket);
    FakeSocket.last = null;
    stubFetch(authRoutes(principal()));
    // No live client passed: the app makes the tab's own, as in the browser.
    renderApp('/', null, { authConfig: CLERK });

    await waitFor(() => expect(FakeSocket.last).not.toBeNull());
    FakeSocket.last!.open();
    await waitFor(() => expect(FakeSocket.last!.sent[0]).toEqual({ v: 2, type: 'auth', token: expect.stringMatching(/^clerk-token-\d+$/) }));
  });
});
