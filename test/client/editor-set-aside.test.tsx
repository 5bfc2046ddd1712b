/**
 * A map the server set aside (it could not apply one of its changes) opens in the editor as it
 * was before, with a notice naming a reference for the team, instead of a blank or silently
 * stale editor; a map set aside while open says so once a change arrives; other maps say nothing.
 */
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document';
import { topics } from '../../events/topics';
import { authRoutes, principal, renderApp, stubFetch } from './support/fakes';

afterEach(() => vi.unstubAllGlobals());

const owner = principal({ uid: 'u1' });
const cafe = Location.parse({ id: 'cafe', title: 'Cafe', layer: 'ground', position: { x: 100, y: 100 } });
const document: MapDocument = { ...emptyMapDocument(), locations: [cafe] };
const record = { id: 'm1', title: 'Harbour Market', data: document, revision: '1' };
const setAside = { reference: '6f1c2a4e-0b7d-4f3e-9a51-2d8c7e5b9f10', since: '2026-11-28T22:00:00.000Z' };

async function openEditor(answer: { setAside: typeof setAside | null }) {
  const fake = stubFetch({
    ...authRoutes(owner),
    'GET /api/maps/m1/data': () => ({ body: { result: { ...record, history: [] }, position: '3:0' } }),
    'GET /api/public/maps/m1': () => ({ body: { result: { ...record, state: 0, test: true } } }),
    'GET /api/maps/m1/set-aside': () => ({ body: { result: answer } }),
  });
  const view = renderApp('/maps/m1');
  await screen.findByRole('region', { name: /Map editor/ }, { timeout: 5_000 });
  return { ...view, requests: fake.requests };
}

const notice = () => screen.queryAllByRole('alert').find((alert) => alert.textContent?.includes('This map could not be updated'));

describe('a set-aside map in the editor', () => {
  it('says the map could not be updated, with the reference, and still shows the map as it was', async () => {
    await openEditor({ setAside });
    await waitFor(() => expect(notice()).toBeDefined());
    expect(notice()).toHaveTextContent('This map could not be updated; the team has been told.');
    expect(notice()).toHaveTextContent(`Reference: ${setAside.reference}`);
    expect(screen.getByRole('textbox', { name: 'Map title' })).toHaveValue('Harbour Market');
  });

  it('says nothing of a map that is up to date, and tells at the next push once it is set aside', async () => {
    const answer: { setAside: typeof setAside | null } = { setAside: null };
    const { live, requests } = await openEditor(answer);
    await waitFor(() => expect(live.listeners.get(topics.map('m1'))?.size).toBe(1));
    await waitFor(() => expect(requests.filter((request) => request.path === '/api/maps/m1/set-aside')).toHaveLength(1));
    expect(notice()).toBeUndefined();

    // A change arrives (a collaborator's, or one this map cannot be updated with).
    answer.setAside = setAside;
    act(() => live.emit(topics.map('m1'), { ...record, revision: '2', history: [] }, '4:0'));
    await waitFor(() => expect(notice()).toHaveTextContent(setAside.reference));
  });
});
