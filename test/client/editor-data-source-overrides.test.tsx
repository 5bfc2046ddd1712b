/**
 * The Data source section's overridden fields (issue 30 item 4): the synced fields edited in
 * Mapfold, counted and listed with the location, the field, Mapfold's value and the source's;
 * per field (by keyboard) "Keep Mapfold's value" or "Use the source's value", and both for all,
 * each sent as `resolveSyncOverride`; the source's values become an undo step of the editor's.
 * `fetch` is faked at the boundary, the server's answers as it gives them.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OverriddenField } from '../../events/map-data-source';
import { emptyMapDocument, type MapDocument } from '../../events/map-document';
import { DataSourceSection } from '../../client/src/features/editor/panels/data-source-section';

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let overrides: OverriddenField[];
let calls: Array<{ name: string; data: any }>;

beforeEach(() => {
  calls = [];
  overrides = [
    { key: '00R', title: 'Livingston (our name)', field: 'title', mapfold: 'Livingston (our name)', source: 'Livingston Municipal (renamed)', choice: null },
    { key: '01M', title: 'Tishomingo County', field: 'position', mapfold: { x: 105.25, y: 40 }, source: { x: 100, y: 35.04 }, choice: null },
    { key: '01G', title: 'Perry (ours)', field: 'groups', mapfold: ['food'], source: [], choice: 'keep' },
  ];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (/\/api\/maps\/[^/]+\/data-source$/.test(url)) {
      return json({
        result: { source: { url: 'https://example.com/stores.csv', keyColumn: 'iata', schedule: 'manual', name: 'Stores sheet' }, lastSyncAt: '2026-11-29T10:00:00.000Z', lastError: null, overrides, moreOverrides: 0 },
      });
    }
    const name = /\/api\/fn\/(\w+)$/.exec(url)?.[1];
    if (name === 'resolveSyncOverride') {
      const { data } = JSON.parse(String(init?.body)) as { data: { overrides: Array<{ key: string; field: string; choice: 'keep' | 'source' }> } };
      calls.push({ name, data });
      // The server: kept ones are marked, the source's values leave the list.
      for (const choice of data.overrides) {
        overrides = choice.choice === 'keep' ? overrides.map((o) => (o.key === choice.key && o.field === choice.field ? { ...o, choice: 'keep' } : o)) : overrides.filter((o) => !(o.key === choice.key && o.field === choice.field));
      }
      const used = data.overrides.filter((c) => c.choice === 'source').length;
      return json({ result: { kept: data.overrides.length - used, used, revision: used > 0 ? '42' : null }, position: null });
    }
    return new Response(null, { status: 404 });
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function withGroup(): MapDocument {
  return { ...emptyMapDocument(), groups: [{ id: 'food', name: 'Food & drink', color: '#ea580c', legend: true }] };
}

function renderSection() {
  const started = vi.fn();
  const steps: Array<{ revision: string; notice: string }> = [];
  render(<DataSourceSection mapId="m1" document={withGroup()} onImportStart={started} onServerStep={(revision, notice) => steps.push({ revision, notice })} />);
  return { started, steps };
}

describe('the Data source section’s overridden fields', () => {
  it('counts and lists them with the location, the field and both values, kept ones marked', async () => {
    renderSection();
    const group = await screen.findByRole('group', { name: /Overridden fields 3/ });
    expect(group).toHaveAccessibleDescription(/2 fields edited in Mapfold since the last sync: syncs keep Mapfold’s value until you choose\. 1 field kept in Mapfold/);
    const items = within(group).getAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('Livingston (our name)Title');
    expect(within(items[0]!).getByText('Mapfold').nextElementSibling).toHaveTextContent('Livingston (our name)');
    expect(within(items[0]!).getByText('Source').nextElementSibling).toHaveTextContent('Livingston Municipal (renamed)');
    // A position by its coordinates, groups by name, an empty value said so.
    expect(items[1]).toHaveTextContent('Mapfoldx 105.3, y 40Sourcex 100, y 35');
    expect(items[2]).toHaveTextContent('Kept');
    expect(items[2]).toHaveTextContent('MapfoldFood & drinkSource(empty)');
    // A kept field offers only the source's value; each button names its row to screen readers.
    expect(within(items[2]!).queryByRole('button', { name: 'Keep Mapfold’s value' })).toBeNull();
    expect(within(items[0]!).getByRole('button', { name: 'Keep Mapfold’s value' })).toHaveAccessibleDescription('Livingston (our name) Title');
  });

  it('keeps Mapfold’s value of one field from the keyboard, and uses the source for all as one undo step', async () => {
    const user = userEvent.setup();
    const { started, steps } = renderSection();
    const group = await screen.findByRole('group', { name: /Overridden fields 3/ });
    const keep = within(within(group).getAllByRole('listitem')[0]!).getByRole('button', { name: 'Keep Mapfold’s value' });
    keep.focus();
    await user.keyboard('{Enter}');
    expect(calls).toEqual([{ name: 'resolveSyncOverride', data: { mapId: 'm1', overrides: [{ key: '00R', field: 'title', choice: 'keep' }] } }]);
    expect(await screen.findByText('Kept Mapfold’s value of 1 field: syncs leave it alone.')).toBeInTheDocument();
    // The focus stays in the list (its heading), not lost with the button.
    expect(screen.getByRole('heading', { name: /Overridden fields/ })).toHaveFocus();
    await waitFor(() => expect(within(screen.getByRole('group', { name: /Overridden fields/ })).getAllByText('Kept')).toHaveLength(2));
    expect(started).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Use the source for all' }));
    expect(calls[1]).toEqual({
      name: 'resolveSyncOverride',
      data: {
        mapId: 'm1',
        overrides: [
          { key: '01M', field: 'position', choice: 'source' },
          { key: '00R', field: 'title', choice: 'source' },
          { key: '01G', field: 'groups', choice: 'source' },
        ],
      },
    });
    expect(started).toHaveBeenCalledTimes(1);
    expect(steps).toEqual([{ revision: '42', notice: 'Used the source’s value for 3 fields.' }]);
    await waitFor(() => expect(screen.queryByRole('group', { name: /Overridden fields/ })).toBeNull());
    expect(screen.getByText('Used the source’s value for 3 fields.')).toBeInTheDocument();
  });

  it('says a refusal in the server’s words', async () => {
    const user = userEvent.setup();
    const original = globalThis.fetch;
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) =>
      /resolveSyncOverride$/.test(url) ? json({ error: { status: 'ABORTED', message: 'The title of “Livingston (our name)” is not overridden any more (a sync or someone else changed it): reload the list and choose again.' } }, 409) : original(url, init),
    );
    renderSection();
    const group = await screen.findByRole('group', { name: /Overridden fields 3/ });
    await user.click(within(within(group).getAllByRole('listitem')[0]!).getByRole('button', { name: 'Use the source’s value' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('is not overridden any more');
  });
});
