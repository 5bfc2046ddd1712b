import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authRoutes, principal, renderApp, stubFetch } from './support/fakes';

afterEach(() => vi.unstubAllGlobals());

describe('signed-in-only pages', () => {
  it.each(['/maps', '/maps/new', '/account', '/subscribe'])('send a signed-out visitor at %s to /login, carrying the page in state', async (path) => {
    stubFetch(authRoutes(null));
    const { router } = renderApp(path);

    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.state).toEqual({ from: { pathname: path, search: '', hash: '' } });
  });

  it('return the visitor to the page they wanted after login', async () => {
    const user = principal();
    stubFetch({
      ...authRoutes(null),
      'POST /api/auth/login': ({ data }) => {
        expect(data).toEqual({ email: 'avery@example.com', password: 'correct horse' });
        return { body: { result: user } };
      },
    });
    const { router } = renderApp('/account?tab=profile');
    await screen.findByRole('heading', { name: 'Welcome back' });

    await userEvent.type(screen.getByLabelText('Email'), 'avery@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Log in' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Account' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account');
    expect(router.state.location.search).toBe('?tab=profile');
  });

  it('show a spinner, and do not redirect, while the session is loading', async () => {
    let answer: (value: { body: unknown }) => void = () => {};
    stubFetch({ 'GET /api/auth/me': () => new Promise((resolve) => (answer = resolve)) });
    const { router } = renderApp('/maps');

    expect(await screen.findByRole('status', { name: 'Checking your session' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/maps');

    answer({ body: { result: principal() } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your maps' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/maps');
  });
});

describe('signed-out-only pages', () => {
  it.each(['/login', '/register', '/reset'])('send a signed-in user at %s to /maps', async (path) => {
    stubFetch(authRoutes(principal()));
    const { router } = renderApp(path);

    expect(await screen.findByRole('heading', { level: 1, name: 'Your maps' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/maps');
  });

  it('after registering, go on to the page the visitor wanted', async () => {
    stubFetch({
      ...authRoutes(null),
      'POST /api/auth/register': ({ data }) => ({ body: { result: principal({ displayName: (data as { displayName: string }).displayName }) } }),
    });
    const { router } = renderApp('/subscribe');
    await screen.findByRole('heading', { name: 'Welcome back' });

    await userEvent.click(screen.getByRole('link', { name: 'Create an account' }));
    await userEvent.type(await screen.findByLabelText('Display name'), 'Sam Lee');
    await userEvent.type(screen.getByLabelText('Email'), 'sam@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'long enough');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/subscribe'));
    expect(await screen.findByRole('link', { name: /Account settings for Sam Lee/ })).toHaveTextContent('SL');
  });

  it('ignore a carried page that is not a path inside the app', async () => {
    stubFetch(authRoutes(principal()));
    const { router } = renderApp({ pathname: '/login', state: { from: { pathname: '//evil.example/x' } } });

    await waitFor(() => expect(router.state.location.pathname).toBe('/maps'));
  });
});
