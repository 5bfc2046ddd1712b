import { act, render, renderHook, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../client/src/lib/api';
import { SessionProvider } from '../../client/src/features/auth/session-provider';
import { useSession } from '../../client/src/lib/session';
import { authRoutes, principal, renderApp, stubFetch } from './support/fakes';

afterEach(() => vi.unstubAllGlobals());

const wrapper = ({ children }: { children: ReactNode }) => <SessionProvider>{children}</SessionProvider>;

async function loadedSession() {
  const hook = renderHook(() => useSession(), { wrapper });
  await waitFor(() => expect(hook.result.current.status).not.toBe('loading'));
  return hook;
}

describe('the session', () => {
  it('loads who is signed in from /api/auth/me', async () => {
    stubFetch(authRoutes(principal({ displayName: 'Kim Park' })));
    const { result } = await loadedSession();
    expect(result.current.status).toBe('signedIn');
    expect(result.current.user?.displayName).toBe('Kim Park');
  });

  it('login returns the error instead of throwing, with the server message', async () => {
    stubFetch({
      ...authRoutes(null),
      'POST /api/auth/login': () => ({
        status: 401,
        body: { error: { status: 'UNAUTHENTICATED', message: 'Incorrect email or password.' } },
      }),
    });
    const { result } = await loadedSession();

    let error: ApiError | null = null;
    await act(async () => {
      error = await result.current.login('avery@example.com', 'nope');
    });

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'unauthenticated', status: 401, message: 'Incorrect email or password.' });
    expect(result.current.status).toBe('signedOut');
  });

  it('login returns null and signs in on success', async () => {
    stubFetch({ ...authRoutes(null), 'POST /api/auth/login': () => ({ body: { result: principal() } }) });
    const { result } = await loadedSession();

    let error: ApiError | null | undefined;
    await act(async () => {
      error = await result.current.login('avery@example.com', 'right');
    });

    expect(error).toBeNull();
    expect(result.current.status).toBe('signedIn');
  });

  it('logout returns the error instead of throwing, and stays signed in', async () => {
    stubFetch({
      ...authRoutes(principal()),
      'POST /api/auth/logout': () => ({ status: 503, body: { error: { status: 'UNAVAILABLE', message: 'Try again shortly.' } } }),
    });
    const { result } = await loadedSession();

    let error: ApiError | null = null;
    await act(async () => {
      error = await result.current.logout();
    });

    expect(error).toMatchObject({ code: 'unavailable', message: 'Try again shortly.' });
    expect(result.current.status).toBe('signedIn');
  });

  it('logout returns a network failure as an error too', async () => {
    const routes = authRoutes(principal());
    stubFetch(routes);
    const { result } = await loadedSession();
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('fetch failed'))));

    let error: ApiError | null = null;
    await act(async () => {
      error = await result.current.logout();
    });

    expect(error).toMatchObject({ code: 'internal' });
  });

  it('register returns the server message (e.g. the account exists)', async () => {
    stubFetch({
      ...authRoutes(null),
      'POST /api/auth/register': () => ({
        status: 409,
        body: { error: { status: 'ABORTED', message: 'An account with this email already exists. Log in instead.' } },
      }),
    });
    const { result } = await loadedSession();

    let error: ApiError | null = null;
    await act(async () => {
      error = await result.current.register({ displayName: 'A', email: 'a@example.com', password: 'long enough' });
    });

    expect(error).toMatchObject({ code: 'aborted', message: 'An account with this email already exists. Log in instead.' });
  });

  it('treats an unreachable server as signed out', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('fetch failed'))));
    const { result } = await loadedSession();
    expect(result.current.status).toBe('signedOut');
  });
});

describe('the login page', () => {
  it('disables the button with a spinner while waiting, then shows the server error in an alert', async () => {
    let answer: (value: { status: number; body: unknown }) => void = () => {};
    stubFetch({ ...authRoutes(null), 'POST /api/auth/login': () => new Promise((resolve) => (answer = resolve)) });
    renderApp('/login');

    await userEvent.type(await screen.findByLabelText('Email'), 'nobody@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'whatever1');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));

    const button = screen.getByRole('button', { name: 'Log in' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');

    answer({ status: 401, body: { error: { status: 'UNAUTHENTICATED', message: 'Incorrect email or password.' } } });

    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect email or password.');
    expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled();
  });
});

describe('logging out from the header', () => {
  it('returns to / and shows the signed-out navigation', async () => {
    stubFetch(authRoutes(principal()));
    const { router, live } = renderApp('/maps');
    await screen.findByRole('heading', { level: 1, name: 'Your maps' });
    expect(live.state).toBe('open');

    await userEvent.click(screen.getByRole('button', { name: 'Log out' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    const header = screen.getByRole('banner');
    expect(await within(header).findByRole('link', { name: 'Sign up' })).toBeInTheDocument();
    expect(within(header).getByRole('link', { name: 'Login' })).toBeInTheDocument();
    expect(live.state).toBe('closed');
  });

  it('ends the session before the page says so: the button spins until the server answers, then home, never /login', async () => {
    const routes = authRoutes(principal());
    let answer: () => void = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const { requests } = stubFetch({
      ...routes,
      'POST /api/auth/logout': async (request) => {
        await answered;
        return routes['POST /api/auth/logout']!(request);
      },
    });
    const { router } = renderApp('/account');
    await userEvent.click(await screen.findByRole('button', { name: 'Log out' }));

    // The logout is sent at once; until it is answered the account stays on screen, the button busy.
    await waitFor(() => expect(requests.some((r) => r.method === 'POST' && r.path === '/api/auth/logout')).toBe(true));
    const button = within(screen.getByRole('banner')).getByRole('button', { name: 'Log out' });
    expect(button).toBeDisabled();
    expect(button).toHaveAttribute('aria-busy', 'true');
    expect(router.state.location.pathname).toBe('/account');

    const visited: string[] = [];
    const seen = setInterval(() => visited.push(router.state.location.pathname), 1);
    answer();
    try {
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
      expect(await within(screen.getByRole('banner')).findByRole('link', { name: 'Login' })).toBeInTheDocument();
    } finally {
      clearInterval(seen);
    }
    // The signed-in-only page sent this tab home with the header, not to log in again.
    expect(visited).not.toContain('/login');
  });

  it('shows the error when logout fails', async () => {
    stubFetch({
      ...authRoutes(principal()),
      'POST /api/auth/logout': () => ({ status: 500, body: { error: { status: 'INTERNAL', message: 'Internal error.' } } }),
    });
    renderApp('/');
    await userEvent.click(await screen.findByRole('button', { name: 'Log out' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Internal error.');
  });
});

describe('useSession', () => {
  it('must be used inside the provider', () => {
    const Probe = () => <p>{useSession().status}</p>;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Probe />)).toThrow(/SessionProvider/);
  });
});
