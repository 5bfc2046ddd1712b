/**
 * The editor's Insights panel (issue 19, part 4): loading, then the numbers (totals, views per
 * day in a table for screen readers beside the chart, top locations, top searches, searches
 * that found nothing), the 7/30/90-day range, the CSV download (fetched with the app's
 * authentication, Clerk's bearer token included, busy while it comes, a toast when it fails),
 * the empty state ("No visits yet") and the error state with a retry. Through the app's API module over a fetch that answers as
 * the server does.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
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
function server(answer: (url: URL) => { status: number; body: unknown; headers?: Record<string, string> }, getToken: (() => Promise<string | null>) | null = null) {
  const asked: URL[] = [];
  const requests: Array<{ url: URL; init: RequestInit | undefined }> = [];
  const api = createApiClient({
    getToken,
    fetch: async (input, init) => {
      const url = new URL(String(input), 'http://localhost');
      asked.push(url);
      requests.push({ url, init });
      const { status, body, headers } = answer(url);
      return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status, headers: headers ?? { 'content-type': 'application/json' } });
    },
  });
  return { api, asked, requests };
}

const CSV_NAME = 'insights-mall-2026-10-27-to-2026-11-25.csv';
/** Answers the report, and the CSV as the server sends it (an attachment with its file name). */
const reportAndCsv = (url: URL) =>
  url.searchParams.get('format') === 'csv'
    ? { status: 200, body: '\uFEFFday,metric,count\r\n', headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': `attachment; filename="${CSV_NAME}"; filename*=UTF-8''${CSV_NAME}` } }
    : { status: 200, body: { result: reportFor(url.searchParams.get('from')!, url.searchParams.get('to')!, () => 2) } };

/** Catches what the panel hands the browser to save (an object URL clicked as a download). */
function catchSaves() {
  const saved: Array<{ name: string; blob: Blob }> = [];
  const blobs = new Map<string, Blob>();
  Object.assign(URL, {
    createObjectURL: (blob: Blob) => {
      const url = `blob:test/${blobs.size}`;
      blobs.set(url, blob);
      return url;
    },
    revokeObjectURL: () => {},
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push({ name: this.download, blob: blobs.get(this.href)! });
  });
  return saved;
}
afterEach(() => vi.restoreAllMocks());

describe('the Insights panel', () => {
  it('shows the loading state, then the views per day, the top lists and the CSV button', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { api, asked } = server((url) => ({ status: 200, body: { result: reportFor(url.searchParams.get('from')!, url.searchParams.get('to')!, (_d, i) => (i % 3) + 1) } }));
    const slow = { get: async (...args: Parameters<typeof api.get>) => { await gate; return api.get(...args); }, download: api.download } as Pick<typeof api, 'get' | 'download'>;
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

    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeEnabled();
  });

  it('downloads the CSV with the bearer token (Clerk mode), busy until it is saved under the server’s file name', async () => {
    const saved = catchSaves();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { api, requests } = server(reportAndCsv, async () => 'clerk-token-1');
    const slow = { get: api.get, download: async (...args: Parameters<typeof api.download>) => { await gate; return api.download(...args); } };
    render(<InsightsPanel mapId="mall" published api={slow} today={() => TODAY} />);
    await screen.findByRole('table', { name: /Views per day/ });
    const button = screen.getByRole('button', { name: 'Download CSV' });
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-busy', 'true');
    // A second press while it comes asks nothing more.
    await userEvent.click(button);
    release();
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(button).toHaveAttribute('aria-busy', 'false');
    expect(saved[0]!.name).toBe(CSV_NAME);
    expect(await saved[0]!.blob.text()).toContain('day,metric,count');
    const csvRequests = requests.filter((request) => request.url.searchParams.get('format') === 'csv');
    expect(csvRequests).toHaveLength(1);
    expect(csvRequests[0]!.url.pathname + csvRequests[0]!.url.search).toBe('/api/maps/mall/insights?from=2026-10-27&to=2026-11-25&format=csv');
    expect((csvRequests[0]!.init?.headers as Record<string, string>).authorization).toBe('Bearer clerk-token-1');
    expect(csvRequests[0]!.init?.credentials).toBe('omit');
  });

  it('says in a toast why the CSV could not be downloaded, and saves nothing', async () => {
    const saved = catchSaves();
    const toasts: string[] = [];
    const { api } = server((url) =>
      url.searchParams.get('format') === 'csv'
        ? { status: 401, body: { error: { status: 'UNAUTHENTICATED', message: 'Sign in again to continue.' } } }
        : reportAndCsv(url),
    );
    render(<InsightsPanel mapId="mall" published api={api} onToast={(message) => toasts.push(message)} today={() => TODAY} />);
    await screen.findByRole('table', { name: /Views per day/ });
    await userEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(toasts).toEqual(['The CSV could not be downloaded: Sign in again to continue.']));
    expect(saved).toEqual([]);
    expect(screen.getByRole('button', { name: 'Download CSV' })).toHaveAttribute('aria-busy', 'false');
  });

  it('asks for 7 or 90 days when the range changes', async () => {
    const { api, asked } = server((url) => ({ status: 200, body: { result: reportFor(url.searchParams.get('from')!, url.searchParams.get('to')!, () => 2) } }));
    render(<InsightsPanel mapId="mall" published api={api} today={() => TODAY} />);
    await screen.findByRole('table', { name: /Views per day/ });
    await userEvent.click(screen.getByRole('radio', { name: '7 days' }));
    const week = await screen.findByRole('table', { name: 'Views per day, Nov 19 to Nov 25' });
    expect(within(week).getAllByRole('row')).toHaveLength(8);
    expect(asked.at(-1)!.searchParams.get('from')).toBe(addDays('2026-11-25', -6));
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
