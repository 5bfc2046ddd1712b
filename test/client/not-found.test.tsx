import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authRoutes, renderApp, stubFetch } from './support/fakes';

afterEach(() => vi.unstubAllGlobals());

describe('the 404 page', () => {
  it.each(['/no-such-page', '/maps/a/b', '/case-study/unknown'])('shows Not Found for %s, with a Back to home button', async (path) => {
    stubFetch(authRoutes(null));
    const { router } = renderApp(path);

    expect(await screen.findByRole('heading', { level: 1, name: 'Not Found' })).toBeInTheDocument();
    expect(screen.getByText("The page you're looking for could not be found.")).toBeInTheDocument();
    // Inside the main layout.
    expect(screen.getByRole('banner')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Back to home' }));
    expect(router.state.location.pathname).toBe('/');
    expect(await screen.findByRole('heading', { level: 1, name: /custom interactive maps/i })).toBeInTheDocument();
  });
});
