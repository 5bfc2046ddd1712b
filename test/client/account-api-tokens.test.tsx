/**
 * /account's "API tokens" (issue 30 item 1) against a stubbed fetch: the list with scopes,
 * expiry and last use, creating a token (shown once, with a copy button), revoking one after
 * a confirmation, and an unverified account asked to verify first.
 */
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiTokenSummary } from '../../events/api-tokens.js';
import { authRoutes, principal, renderApp, stubFetch } from './support/fakes';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const user = principal({ emailVerified: true });
const TOKEN = `mf_${'Q'.repeat(43)}`;

const sync: ApiTokenSummary = {
  tokenId: 'token-1',
  name: 'Store list sync',
  scopes: ['maps:read', 'import'],
  prefix: 'mf_AbCd',
  created: '2026-01-05T10:00:00.000Z',
  expires: '2099-03-01T10:00:00.000Z',
  lastUsed: '2026-02-10T08:30:00.000Z',
};
const old: ApiTokenSummary = { tokenId: 'token-2', name: 'Old CMS', scopes: ['maps:write'], prefix: 'mf_Zz99', created: '2025-01-05T10:00:00.000Z', expires: '2025-02-04T10:00:00.000Z', lastUsed: null };

describe('/account: API tokens', () => {
  it('lists the tokens with their scopes, expiry and last use, and links the API reference', async () => {
    stubFetch({ ...authRoutes(user), 'GET /api/account/api-tokens': () => ({ body: { result: { tokens: [sync, old] } } }) });
    renderApp('/account');
    const section = await screen.findByRole('region', { name: 'API tokens' });
    const list = await within(section).findByRole('list', { name: 'Your API tokens' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first).toHaveTextContent('Store list sync mf_AbCd…');
    expect(first).toHaveTextContent('Read maps · Import');
    expect(first).toHaveTextContent('Expires Mar 1, 2099');
    expect(first).toHaveTextContent('Last used Feb 10, 2026');
    expect(second).toHaveTextContent('Expired');
    expect(second).toHaveTextContent('Never used');
    expect(within(section).getByRole('link', { name: 'API reference' })).toHaveAttribute('href', '/docs/api');
  });

  it('creates a token with the chosen scopes and expiry, shows it once with a copy button, and lists it', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { requests } = stubFetch({
      ...authRoutes(user),
      'GET /api/account/api-tokens': () => ({ body: { result: { tokens: [] } } }),
      'POST /api/fn/createApiToken': () => ({ body: { result: { tokenId: 'token-9', token: TOKEN }, position: '1:1' } }),
    });
    renderApp('/account');
    const section = await screen.findByRole('region', { name: 'API tokens' });
    expect(await within(section).findByText('No API tokens yet.')).toBeInTheDocument();
    const form = within(section).getByRole('form', { name: 'Create an API token' });
    expect(within(form).getByRole('button', { name: 'Create token' })).toBeDisabled();

    await userEvent.type(within(form).getByLabelText('Token name'), 'Nightly export');
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Write maps' }));
    await userEvent.selectOptions(within(form).getByLabelText('Expires after'), 'Never');
    await userEvent.click(within(form).getByRole('button', { name: 'Create token' }));

    const fresh = await within(section).findByRole('region', { name: 'New API token' });
    expect(within(fresh).getByLabelText('API token')).toHaveValue(TOKEN);
    expect(fresh).toHaveTextContent('It is not shown again');
    await userEvent.click(within(fresh).getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith(TOKEN);
    expect(await within(fresh).findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    expect(requests.find((r) => r.path === '/api/fn/createApiToken')?.data).toEqual({ name: 'Nightly export', scopes: ['maps:read', 'maps:write'] });

    const item = within(within(section).getByRole('list', { name: 'Your API tokens' })).getByRole('listitem');
    expect(item).toHaveTextContent('Nightly export mf_QQQQ…');
    expect(item).toHaveTextContent('Read maps · Write maps');
    expect(item).toHaveTextContent('Never expires');

    // Done: the token is gone from the page for good.
    await userEvent.click(within(fresh).getByRole('button', { name: 'Done' }));
    expect(within(section).queryByRole('region', { name: 'New API token' })).not.toBeInTheDocument();
    expect(section).not.toHaveTextContent(TOKEN);
  });

  it('sends the expiry in days, and shows the server’s refusal', async () => {
    let attempts = 0;
    const { requests } = stubFetch({
      ...authRoutes(user),
      'GET /api/account/api-tokens': () => ({ body: { result: { tokens: [] } } }),
      'POST /api/fn/createApiToken': () =>
        ++attempts === 1
          ? { status: 429, body: { error: { status: 'RESOURCE_EXHAUSTED', message: 'An account may have at most 50 API tokens. Revoke one you no longer use first.' } } }
          : { body: { result: { tokenId: 'token-9', token: TOKEN }, position: '1:1' } },
    });
    renderApp('/account');
    const form = await screen.findByRole('form', { name: 'Create an API token' });
    await userEvent.type(within(form).getByLabelText('Token name'), 'CMS');
    await userEvent.click(within(form).getByRole('button', { name: 'Create token' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent('at most 50 API tokens');
    expect(requests.find((r) => r.path === '/api/fn/createApiToken')?.data).toEqual({ name: 'CMS', scopes: ['maps:read'], expiresInDays: 90 });
  });

  it('revokes a token after confirming', async () => {
    const { requests } = stubFetch({
      ...authRoutes(user),
      'GET /api/account/api-tokens': () => ({ body: { result: { tokens: [sync, old] } } }),
      'POST /api/fn/revokeApiToken': () => ({ body: { result: null, position: '1:2' } }),
    });
    renderApp('/account');
    const section = await screen.findByRole('region', { name: 'API tokens' });
    await userEvent.click(await within(section).findByRole('button', { name: 'Revoke Store list sync' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke “Store list sync”?' });
    expect(dialog).toHaveTextContent('stops working at once');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke token' }));
    await waitFor(() => expect(within(section).getAllByRole('listitem')).toHaveLength(1));
    expect(within(section).getByRole('listitem')).toHaveTextContent('Old CMS');
    expect(requests.find((r) => r.path === '/api/fn/revokeApiToken')?.data).toEqual({ tokenId: 'token-1' });
  });

  it('asks an unverified account to verify first, and does not ask for its tokens', async () => {
    const { requests } = stubFetch(authRoutes(principal({ emailVerified: false })));
    renderApp('/account');
    const section = await screen.findByRole('region', { name: 'API tokens' });
    expect(section).toHaveTextContent('Verify your email address to create API tokens.');
    expect(within(section).queryByRole('form')).not.toBeInTheDocument();
    expect(requests.some((r) => r.path === '/api/account/api-tokens')).toBe(false);
  });
});
