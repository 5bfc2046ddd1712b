import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AvatarLink } from '../../client/src/components/avatar';
import { initialsOf } from '../../client/src/utils/initials';
import { authRoutes, principal, renderApp, stubFetch } from './support/fakes';

afterEach(() => vi.unstubAllGlobals());

describe('initialsOf', () => {
  it.each([
    ['Avery Quinn', 'AQ'],
    ['avery quinn', 'AQ'],
    ['Avery', 'A'],
    ['Mary Ann van der Berg', 'MB'],
    ['  Jo   Lee  ', 'JL'],
    ['Élodie Ørsted', 'ÉØ'],
    ['"Sam" (Samuel) Okafor', 'SO'],
    ['', 'M'],
    ['   ', 'M'],
    [null, 'M'],
    [undefined, 'M'],
    ['!!! ???', 'M'],
  ])('%j gives %j (at most 2, fallback M)', (name, expected) => {
    expect(initialsOf(name)).toBe(expected);
  });
});

describe('AvatarLink', () => {
  it('shows the initials in a link to the account page, with an admin badge for admins', () => {
    render(
      <MemoryRouter>
        <AvatarLink to="/account" displayName="Avery Quinn" admin />
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'Account settings for Avery Quinn (admin)' });
    expect(link).toHaveAttribute('href', '/account');
    expect(link).toHaveTextContent('AQ');
    expect(within(link).getByTestId('admin-badge')).toBeInTheDocument();
  });

  it('has no badge for other users and falls back to M', () => {
    render(
      <MemoryRouter>
        <AvatarLink to="/account" displayName="" />
      </MemoryRouter>,
    );
    const link = screen.getByRole('link', { name: 'Account settings for your account' });
    expect(link.querySelector('.avatar__initials')).toHaveTextContent(/^M$/);
    expect(screen.queryByTestId('admin-badge')).not.toBeInTheDocument();
  });
});

describe('the header', () => {
  it('for a signed-in user: Maps link, avatar with initials linking to /account, logout button; no Login or Sign up', async () => {
    stubFetch(authRoutes(principal({ displayName: 'Kim Park' })));
    renderApp('/pricing');
    const banner = screen.getByRole('banner');

    const avatar = await within(banner).findByRole('link', { name: /Account settings for Kim Park/ });
    expect(avatar).toHaveTextContent('KP');
    expect(avatar).toHaveAttribute('href', '/account');
    const nav = within(banner).getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: 'Maps' })).toHaveAttribute('href', '/maps');
    expect(within(nav).getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '/pricing');
    expect(within(nav).getByRole('link', { name: 'Contact' })).toHaveAttribute('href', '/contact');
    expect(within(nav).getByRole('button', { name: 'Log out' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Sign up' })).not.toBeInTheDocument();
    expect(screen.queryByTestId('admin-badge')).not.toBeInTheDocument();
  });

  it('for an admin: a badge on the avatar', async () => {
    stubFetch(authRoutes(principal({ admin: true })));
    renderApp('/');
    const avatar = await screen.findByRole('link', { name: /Account settings for Avery Quinn \(admin\)/ });
    expect(within(avatar).getByTestId('admin-badge')).toBeInTheDocument();
  });

  it('for a signed-out visitor: Pricing, Contact, Login and Sign up; no Maps link, no avatar', async () => {
    stubFetch(authRoutes(null));
    renderApp('/');
    const nav = screen.getByRole('navigation', { name: 'Main' });

    expect(await within(nav).findByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(within(nav).getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/register');
    expect(within(nav).queryByRole('link', { name: 'Maps' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Account settings/ })).not.toBeInTheDocument();
  });

  it.each(['/login', '/register', '/reset'])('hides the navigation on %s but keeps the logo', async (path) => {
    stubFetch(authRoutes(null));
    renderApp(path);
    await screen.findByRole('heading', { level: 1 });
    expect(screen.getByRole('link', { name: 'Mapfold home' })).toHaveAttribute('href', '/');
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /menu/i })).not.toBeInTheDocument();
  });

  it('has a menu toggle for small screens that reports and flips aria-expanded, and closes on Escape', async () => {
    stubFetch(authRoutes(null));
    renderApp('/');
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', screen.getByRole('navigation', { name: 'Main' }).id);

    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');

    await userEvent.keyboard('{Escape}');
    expect(screen.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');

    await userEvent.click(screen.getByRole('button', { name: 'Open menu' }));
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Pricing' }));
    expect(await screen.findByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
  });
});
