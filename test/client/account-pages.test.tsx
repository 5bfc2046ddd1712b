/**
 * The account pages against a stubbed fetch: the e-mail verification banner, /verify-email,
 * /reset (both forms) and /account (name, password, sign out everywhere, delete).
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VERIFICATION_SENT_MESSAGE } from '../../client/src/features/auth/components/verify-email-banner';
import { RESET_REQUESTED_MESSAGE } from '../../client/src/features/auth/components/reset-forms';
import { authRoutes, FakeLive, principal, renderApp, stubFetch, type FakeAnswer } from './support/fakes';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const error = (status: number, message: string): FakeAnswer => ({ status, body: { error: { status: 'ERROR', message } } });

/** A promise the test settles by hand, for watching a form while it waits. */
function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('the e-mail verification banner', () => {
  const unverified = principal({ emailVerified: false, email: 'new@example.com' });

  it.each(['/', '/maps', '/account', '/pricing'])('shows on %s for a signed-in user whose address is not verified', async (path) => {
    stubFetch(authRoutes(unverified));
    renderApp(path);
    const banner = await screen.findByRole('region', { name: 'Verify your email address' });
    expect(banner).toHaveTextContent(/check your inbox and spam folder, click the link, then refresh/i);
    expect(banner).toHaveTextContent('new@example.com');
  });

  it('is not shown once the address is verified, nor to signed-out visitors', async () => {
    stubFetch(authRoutes(principal({ emailVerified: true })));
    const { unmount } = renderApp('/');
    await screen.findByRole('button', { name: 'Log out' });
    expect(screen.queryByRole('region', { name: 'Verify your email address' })).not.toBeInTheDocument();
    unmount();

    stubFetch(authRoutes(null));
    renderApp('/');
    await within(screen.getByRole('banner')).findByRole('link', { name: 'Sign up' });
    expect(screen.queryByRole('region', { name: 'Verify your email address' })).not.toBeInTheDocument();
  });

  it('Resend is disabled with a spinner while sending, then says the e-mail was sent', async () => {
    const answer = deferred<FakeAnswer>();
    const { requests } = stubFetch({ ...authRoutes(unverified), 'POST /api/auth/resend-verification': () => answer.promise });
    renderApp('/maps');
    const banner = await screen.findByRole('region', { name: 'Verify your email address' });

    await userEvent.click(within(banner).getByRole('button', { name: 'Resend' }));
    const resend = within(banner).getByRole('button', { name: 'Resend' });
    expect(resend).toBeDisabled();
    expect(resend).toHaveAttribute('aria-busy', 'true');

    answer.resolve({ body: { result: null } });
    expect(await within(banner).findByRole('status')).toHaveTextContent(VERIFICATION_SENT_MESSAGE);
    expect(VERIFICATION_SENT_MESSAGE).toBe('Verification email sent, please check your inbox and spam folder.');
    expect(within(banner).getByRole('button', { name: 'Resend' })).toBeEnabled();
    expect(requests.filter((r) => r.path === '/api/auth/resend-verification')).toHaveLength(1);
  });

  it("shows the server's error, e.g. asked too often", async () => {
    stubFetch({ ...authRoutes(unverified), 'POST /api/auth/resend-verification': () => error(429, 'Too many requests. Wait a few minutes and try again.') });
    renderApp('/');
    const banner = await screen.findByRole('region', { name: 'Verify your email address' });
    await userEvent.click(within(banner).getByRole('button', { name: 'Resend' }));
    expect(await within(banner).findByRole('alert')).toHaveTextContent('Too many requests. Wait a few minutes and try again.');
  });

  it('Refresh picks up an address verified in another tab', async () => {
    let current = unverified;
    stubFetch({ ...authRoutes(null), 'GET /api/auth/me': () => ({ body: { result: current } }), 'GET /api/maps': () => ({ body: { result: [] } }) });
    renderApp('/');
    const banner = await screen.findByRole('region', { name: 'Verify your email address' });
    current = { ...unverified, emailVerified: true };
    await userEvent.click(within(banner).getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Verify your email address' })).not.toBeInTheDocument());
  });
});

describe('/verify-email', () => {
  it('posts the token once, then says the address is verified with a link to /maps', async () => {
    const { requests } = stubFetch({ ...authRoutes(null), 'POST /api/auth/verify-email': () => ({ body: { result: null } }) });
    renderApp('/verify-email?token=tok-1');
    expect(await screen.findByRole('status', { name: '' })).toBeDefined();
    expect(await screen.findByText('Your email address is verified.')).toHaveAttribute('role', 'status');
    expect(screen.getByRole('link', { name: 'Go to your maps' })).toHaveAttribute('href', '/maps');
    expect(requests.filter((r) => r.path === '/api/auth/verify-email').map((r) => r.data)).toEqual([{ token: 'tok-1' }]);
  });

  it('a signed-in user loses the banner at once', async () => {
    const unverified = principal({ emailVerified: false });
    stubFetch({ ...authRoutes(unverified), 'POST /api/auth/verify-email': () => ({ body: { result: { ...unverified, emailVerified: true } } }) });
    renderApp('/verify-email?token=tok-2');
    expect(await screen.findByText('Your email address is verified.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Verify your email address' })).not.toBeInTheDocument());
  });

  it("shows the server's message for an invalid or used link", async () => {
    const message = 'This verification link is invalid or has expired. Sign in and press Resend to get a new one.';
    stubFetch({ ...authRoutes(null), 'POST /api/auth/verify-email': () => error(400, message) });
    renderApp('/verify-email?token=used');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  });

  it('says the link is invalid when it has no token', async () => {
    const { requests } = stubFetch(authRoutes(null));
    renderApp('/verify-email');
    expect(await screen.findByRole('alert')).toHaveTextContent('This verification link is invalid or has expired.');
    expect(requests.some((r) => r.path === '/api/auth/verify-email')).toBe(false);
  });
});

describe('/reset', () => {
  it('without a token asks for the address, and answers the same neutral message whatever the server knows', async () => {
    const answer = deferred<FakeAnswer>();
    const { requests } = stubFetch({ ...authRoutes(null), 'POST /api/auth/reset-request': () => answer.promise });
    renderApp('/reset');

    expect(await screen.findByRole('heading', { level: 1, name: 'Reset your password' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Email'), 'someone@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByRole('button', { name: 'Send reset link' })).toBeDisabled();

    answer.resolve({ body: { result: null } });
    expect(await screen.findByRole('status')).toHaveTextContent(RESET_REQUESTED_MESSAGE);
    expect(RESET_REQUESTED_MESSAGE).toMatch(/^If an account exists for that address/);
    expect(requests.find((r) => r.path === '/api/auth/reset-request')?.data).toEqual({ email: 'someone@example.com' });
  });

  it('shows the error when asked too often', async () => {
    stubFetch({ ...authRoutes(null), 'POST /api/auth/reset-request': () => error(429, 'Too many reset requests. Try again later.') });
    renderApp('/reset');
    await userEvent.type(await screen.findByLabelText('Email'), 'someone@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many reset requests. Try again later.');
  });

  it('with a token sets the new password, signs in and goes to /maps', async () => {
    const user = principal({ displayName: 'Kim Park' });
    let signedIn: typeof user | null = null;
    const { requests } = stubFetch({
      ...authRoutes(null),
      'GET /api/auth/me': () => ({ body: { result: signedIn } }),
      'POST /api/auth/reset-password': () => {
        signedIn = user;
        return { body: { result: user } };
      },
    });
    const { router } = renderApp({ pathname: '/reset', search: '?token=reset-1' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Choose a new password' })).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('New password'), 'a much better one');
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'a much better one');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password and log in' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/maps'));
    expect(requests.find((r) => r.path === '/api/auth/reset-password')?.data).toEqual({ token: 'reset-1', password: 'a much better one' });
    expect(await screen.findByRole('link', { name: /Account settings for Kim Park/ })).toBeInTheDocument();
  });

  it('with an invalid token shows the server message and offers a new link', async () => {
    const message = 'This reset link is invalid or has expired (only the newest one works). Ask for a new one.';
    stubFetch({ ...authRoutes(null), 'POST /api/auth/reset-password': () => error(400, message) });
    renderApp({ pathname: '/reset', search: '?token=old' });
    await userEvent.type(await screen.findByLabelText('New password'), 'a much better one');
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'a much better one');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password and log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('link', { name: 'Ask for a new reset link' })).toHaveAttribute('href', '/reset');
  });

  it('catches two different passwords before calling the server', async () => {
    const { requests } = stubFetch(authRoutes(null));
    renderApp({ pathname: '/reset', search: '?token=t' });
    await userEvent.type(await screen.findByLabelText('New password'), 'a much better one');
    await userEvent.type(screen.getByLabelText('Repeat the new password'), 'a much better two');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password and log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The two passwords are not the same.');
    expect(requests.some((r) => r.path === '/api/auth/reset-password')).toBe(false);
  });
});

describe('/account', () => {
  const user = principal({ displayName: 'Avery Quinn', email: 'avery@example.com', emailVerified: true });

  it('shows the e-mail and whether it is verified', async () => {
    stubFetch(authRoutes(user));
    renderApp('/account');
    const profile = await screen.findByRole('region', { name: 'Profile' });
    expect(profile).toHaveTextContent('avery@example.com');
    expect(within(profile).getByText('Verified')).toBeInTheDocument();
  });

  it('changes the display name, busy while saving, and updates the avatar', async () => {
    const answer = deferred<FakeAnswer>();
    const { requests } = stubFetch({ ...authRoutes(user), 'POST /api/auth/update-profile': () => answer.promise });
    renderApp('/account');
    const field = await screen.findByLabelText('Display name');
    expect(screen.getByRole('button', { name: 'Save name' })).toBeDisabled();

    await userEvent.clear(field);
    await userEvent.type(field, 'Kim Park');
    await userEvent.click(screen.getByRole('button', { name: 'Save name' }));
    expect(screen.getByRole('button', { name: 'Save name' })).toHaveAttribute('aria-busy', 'true');

    answer.resolve({ body: { result: { ...user, displayName: 'Kim Park' } } });
    expect(await screen.findByRole('status')).toHaveTextContent('Your display name is saved.');
    expect(requests.find((r) => r.path === '/api/auth/update-profile')?.data).toEqual({ displayName: 'Kim Park' });
    expect(within(screen.getByRole('banner')).getByRole('link', { name: /Account settings for Kim Park/ })).toHaveTextContent('KP');
  });

  it("changes the password, and shows the server's error for a wrong current password", async () => {
    let attempts = 0;
    const { requests } = stubFetch({
      ...authRoutes(user),
      'POST /api/auth/change-password': () => (++attempts === 1 ? error(401, 'Wrong password. Try again or reset your password.') : { body: { result: null } }),
    });
    renderApp('/account');
    const form = await screen.findByRole('form', { name: 'Change password' });
    await userEvent.type(within(form).getByLabelText('Current password'), 'not it');
    await userEvent.type(within(form).getByLabelText('New password'), 'brand new pass');
    await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('Wrong password. Try again or reset your password.');

    await userEvent.clear(within(form).getByLabelText('Current password'));
    await userEvent.type(within(form).getByLabelText('Current password'), 'the right one');
    await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await within(form).findByRole('status')).toHaveTextContent('Your password is changed.');
    expect(within(form).getByLabelText('Current password')).toHaveValue('');
    expect(requests.filter((r) => r.path === '/api/auth/change-password').at(-1)?.data).toEqual({ currentPassword: 'the right one', newPassword: 'brand new pass' });
  });

  it('signs out everywhere after confirming, then is signed out at /', async () => {
    let current: typeof user | null = user;
    const live = new FakeLive();
    stubFetch({
      ...authRoutes(null),
      'GET /api/auth/me': () => ({ body: { result: current } }),
      'GET /api/maps': () => ({ body: { result: [] } }),
      'POST /api/auth/sign-out-everywhere': () => {
        current = null;
        return { body: { result: null } };
      },
    });
    const { router } = renderApp('/account', live);
    await userEvent.click(await screen.findByRole('button', { name: 'Sign out everywhere' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign out everywhere?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await within(screen.getByRole('banner')).findByRole('link', { name: 'Sign up' })).toBeInTheDocument();
    expect(live.state).toBe('closed');
  });

  it('deletes the account after a dialog that asks for the password, then is signed out at /', async () => {
    let current: typeof user | null = user;
    const { requests } = stubFetch({
      ...authRoutes(null),
      'GET /api/auth/me': () => ({ body: { result: current } }),
      'GET /api/maps': () => ({ body: { result: [] } }),
      'POST /api/auth/delete-account': (request) => {
        if ((request.data as { password?: string }).password !== 'my password') return error(401, 'Wrong password. Try again or reset your password.');
        current = null;
        return { body: { result: null } };
      },
    });
    const { router } = renderApp('/account');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete your account?' });

    await userEvent.type(within(dialog).getByLabelText('Your password'), 'wrong');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Wrong password. Try again or reset your password.');
    expect(router.state.location.pathname).toBe('/account');

    await userEvent.clear(within(dialog).getByLabelText('Your password'));
    await userEvent.type(within(dialog).getByLabelText('Your password'), 'my password{Enter}');

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await within(screen.getByRole('banner')).findByRole('link', { name: 'Sign up' })).toBeInTheDocument();
    expect(requests.filter((r) => r.path === '/api/auth/delete-account').map((r) => r.data)).toEqual([{ password: 'wrong' }, { password: 'my password' }]);
  });
});

describe('field messages from the server', () => {
  it('a too-common password shows under the password field, without the field prefix', async () => {
    stubFetch({
      ...authRoutes(null),
      'POST /api/auth/register': () => error(400, 'password: This password is too common. Choose one that is harder to guess.'),
    });
    renderApp('/register');
    await userEvent.type(await screen.findByLabelText('Display name'), 'Kim Park');
    await userEvent.type(screen.getByLabelText('Email'), 'kim@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'password');
    await userEvent.click(screen.getByRole('button', { name: 'Create account' }));

    const field = screen.getByLabelText('Password');
    await waitFor(() => expect(field).toHaveAttribute('aria-invalid', 'true'));
    expect(field).toHaveAccessibleDescription(expect.stringContaining('This password is too common. Choose one that is harder to guess.'));
    expect(screen.queryByText(/^password:/)).not.toBeInTheDocument();
  });
});
