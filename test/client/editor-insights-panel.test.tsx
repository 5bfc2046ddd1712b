/**
 * The editor's Insights panel (issue 19, part 4): loading, then the numbers (totals, views per
 * day in a table for screen readers beside the chart, top locations, top searches, searches
 * that found nothing), the 7/30/90-day range, the CSV link, the empty state ("No visits yet")
 * and the error state with a retry. Through the app's API module over a fetch that answers as
 * the server does.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { addDays, daysBetween, type InsightsReport } from '../../events/insights';
import { createApiClient } from '../../client/src/lib/api';
import { InsightsPanel } from '../../client/src/features/editor/panels/insights-panel';

const TODAY = new Date('2026-11-25T10:00:00Z');

function reportFor(from: string, to: string, views: (day: string, index: number) => number): InsightsReport {
  const days = daysBetween(from, to).map((day, index) => ({ day, views: views(day, index) }));
  const total = days.reduce((sum, day) => sum + day.views, 0);
  return {
    from,
    to,
    days,
    totals: { views: total, searches: total ? 9 : 0, searchesWithoutResults: total ? 3 : 0, opens: total ? 12 : 0, directions: total ? 2 : 0 },
    topLocations: total ? [{ id: 'cafe', title: 'Café Noir', count: 8 }, { id: 'shoes', title: 'Shoe Palace', count: 4 }] : [],
    topDirections: total ? [{ id: 'shoes', title: 'Shoe Palace', count: 2 }] : [],
    topSearches: total ? [{ text: 'café', count: 6 }, { text: 'toilets', count: 3 }] : [],
    searchesWithoutResults: total ? [{ text: 'toilets', count: 3 }] : [],
  };
}

/** The API client over a fetch that answers like `GET /api/maps/:id/insights`, recording what was asked. */
function server(answer: (url: URL) => { status: number; body: unknown }) {
  const asked: URL[] = [];
  const api = createApiClient({
    fetch: async (input) => {
      const url = new URL(String(input), 'http://localhost');
      asked.push(url);
      const { status, body } = answer(url);
      return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    },
  });
  return { api, asked };
}

describe('the Insights panel', () => {
  it('shows the loading state, then the views per day, the top lists and the CSV link', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { api, asked } = server((url) => ({ status: 200, body: { result: reportFor(url.searchParams.get('from')!, url.searchParams.get('to')!, (_d, i) => (i % 3) + 1) } }));
    const slow = { get: async (...args: Parameters<typeof api.get>) => { await gate; return api.get(...args); } } as Pick<typeof api, 'get'>;
    render(<InsightsPanel mapId="mall" published api={slow} today={() => TODAY} />);
    expect(screen.getByRole('status')).toHaveTextContent('Loading insights…');
    release();

    const table = await screen.findByRole('table', { name: 'Views per day, Oct 27 to Nov 25' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(31);
    expect(within(rows[1]!).getByRole('rowheader')).toHaveTextContent('Oct 27');
    expect(within(rows[1]!).getByRole('cell')).toHaveTextContent('1');
    expect(asked[0]!.pathname).toBe('/api/maps/mall/insights');
    expect(asked[0]!.searchParams.get('from')).toBe('2026-10-27');
    expect(asked[0]!.searchParams.get('to')).toBe('2026-11-25');

    const totals = screen.getByText('Views', { selector: 'dt' }).closest('div')!;
    expect(totals).toHaveTextContent('60');
    const locations = screen.getByRole('list', { name: 'Top locations' });
    expect(within(locations).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Café Noir8 opens', 'Shoe Palace4 opens']);
    const searches = screen.getByRole('list', { name: 'Top searches' });
    expect(within(searches).getAllByRole('listitem')[0]).toHaveTextContent('“café”6 searches');
    const missed = screen.getByRole('list', { name: 'Searches that found nothing' });
    expect(within(missed).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['“toilets”3 searches']);

    const csv = screen.getByRole('link', { name: 'Download CSV' });
    expect(csv).toHaveAttribute('href', '/api/maps/mall/insights?from=2026-10-27&to=2026-11-25&format=csv');
    expect(csv).toHaveAttribute('download');
  });

  it('asks for 7 or 90 days when the range changes', async () => {
    const { api, asked } = server((url) => ({ status: 200, body: { result: reportFor(url.searchParams.get('from')!, url.searchParams.get('to')!, () => 2) } }));
    render(<InsightsPanel mapId="mall" published api={api} today={() => TODAY} />);
    await screen.findByRole('table', { name: /Views per day/ });
    await userEvent.click(screen.getByRole('radio', { name: '7 days' }));
    const week = await screen.findByRole('table', { name: 'Views per day, Nov 19 to Nov 25' });
    expect(within(week).getAllByRole('row')).toHaveLength(8);
    expect(asked.at(-1)!.searchParams.get('from')).toBe(addDays('2026-11-25', -6));
    expect(screen.getByRole('link', { name: 'Download CSV' })).toHaveAttribute('href', '/api/maps/mall/insights?from=2026-11-19&to=2026-11-25&format=csv');
    await userEvent.click(screen.getByRole('radio', { name: '90 days' }));
    await screen.findByRole('table', { name: 'Views per day, Aug 28 to Nov 25' });
    expect(screen.getByRole('radio', { name: '90 days' })).toHaveAttribute('aria-checked', 'true');
  });

  it('says "No visits yet" when nothing was counted, and that a test map is not counted', async () => {
    const { api } = server((url) => ({ status: 200, body: { result: reportFor(url.searchParams.get('from')!, url.searchParams.get('to')!, () => 0) } }));
    render(<InsightsPanel mapId="mall" published={false} api={api} today={() => TODAY} />);
    expect(await screen.findByText('No visits yet')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('This map is not published: visits are counted once it is.');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows the server’s refusal, and tries again', async () => {
    let refuse = true;
    const { api } = server((url) =>
      refuse
        ? { status: 403, body: { error: { status: 'PERMISSION_DENIED', message: 'You can view this map but not change it: ask its owner to make you an editor.' } } }
        : { status: 200, body: { result: reportFor(url.searchParams.get('from')!, url.searchParams.get('to')!, () => 1) } },
    );
    render(<InsightsPanel mapId="mall" published api={api} today={() => TODAY} />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The insights could not be loaded: You can view this map but not change it');
    refuse = false;
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(await screen.findByRole('table', { name: /Views per day/ })).toBeInTheDocument();
  });
});
