/**
 * The editor's publish panel: the map's status from the live maps list, then its steps in
 * order: 1. the licence (its purchase code registered inline, what this server does with codes
 * said first), 2. publishing, locked until then. Only publishes the server would accept are
 * buttons, the first the primary; a missing slot is said with the way to subscribe. Publishing
 * into a Basic or Pro slot and unpublishing (busy while the call runs, the server's message
 * when it refuses, success announced once the live list has the new state). The map's licence
 * comes from `billing:{uid}`: its Basic period (running or ended), no form for a licensed map,
 * and Basic on a valid licence taking no slot.
 */
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BillingSnapshot } from '../../events/billing-api';
import type { MapListItem } from '../../events/read-models';
import { topics } from '../../events/topics';
import { AppProvider } from '../../client/src/app/provider';
import { SessionGate } from '../../client/src/app/session/session-gate';
import { PublishPanel } from '../../client/src/features/editor/panels/publish-panel';
import { resetLicenceModeCache } from '../../client/src/lib/licence-mode';
import { config } from '../../client/src/lib/config';
import { authRoutes, FakeLive, principal, stubFetch, type FakeAnswer, type FakeRequest } from './support/fakes';

beforeEach(() => resetLicenceModeCache());
afterEach(() => vi.unstubAllGlobals());

const UNVERIFIED = 'Test code accepted locally, not verified with the marketplace.';

const user = principal({ uid: 'u1' });
const mapsTopic = topics.maps('u1');
const billingTopic = topics.billing('u1');

function item(overrides: Partial<MapListItem> = {}): MapListItem {
  return {
    id: 'cafe',
    title: 'Cafe map',
    uid: 'u1',
    author: 'u1',
    created: '2026-03-02T10:00:00.000Z',
    edited: '2026-03-05T16:30:00.000Z',
    state: 0,
    subscribed: false,
    metrics: { layerCount: 1, locationCount: 4 },
    history: [],
    ...overrides,
  };
}

function billing(slots: Partial<BillingSnapshot['slots']> = {}, licences: BillingSnapshot['licences'] = []): BillingSnapshot {
  return {
    subscriptions: [],
    licences,
    checkoutSessions: [],
    slots: { basic: { used: 1, total: 3 }, pro: { used: 0, total: 1 }, test: { used: 1, total: 2 }, ...slots },
    notices: [],
  };
}

/** Cafe's licence: its Basic period runs until `basicUntil`. */
function licence(basicUntil: string, verified = false): BillingSnapshot['licences'][number] {
  return { mapId: 'cafe', verified, registeredAt: '2026-03-01T09:00:00.000Z', basicUntil };
}
const RUNNING = '2099-09-01T09:00:00.000Z';
const ENDED = '2026-01-05T09:00:00.000Z';

const failure = (message: string, status = 400): FakeAnswer => ({ status, body: { error: { status: 'FAILED_PRECONDITION', message } } });

/** The panel for map `cafe`, signed in as u1, with the live maps list and the slots delivered. */
async function openPanel(routes: Record<string, (request: FakeRequest) => FakeAnswer | Promise<FakeAnswer>> = {}, map = item(), snapshot = billing()) {
  const fake = stubFetch({ ...authRoutes(user), ...routes });
  const live = new FakeLive();
  render(
    <AppProvider live={live}>
      <MemoryRouter>
        {/* As on the map page: behind the gate that waits for the session's runtime (live, billing). */}
        <SessionGate>
          <PublishPanel mapId="cafe" title="Cafe map" state={null} />
        </SessionGate>
      </MemoryRouter>
    </AppProvider>,
  );
  await waitFor(() => expect(live.listeners.get(mapsTopic)?.size).toBeGreaterThan(0));
  await waitFor(() => expect(live.listeners.get(billingTopic)?.size).toBeGreaterThan(0));
  live.emit(mapsTopic, [map], '5:0');
  live.emit(billingTopic, snapshot, '5:0');
  await screen.findByRole('meter', { name: 'Basic slots' });
  return { live, requests: fake.requests };
}

const status = () => screen.getByTestId('publish-status');
const calls = (requests: FakeRequest[], name: string) => requests.filter((request) => request.path === `/api/fn/${name}`).map((request) => request.data);

describe('the publish panel', () => {
  it('walks a map without a licence to its licence first: registering is the primary button, publishing waits', async () => {
    await openPanel();
    expect(status()).toHaveTextContent('Test map — only you can see it');
    expect(status()).toHaveTextContent('Register its licence, then publish it, to make it public.');
    const steps = [...screen.getByRole('list', { name: 'Steps to publish' }).children] as HTMLElement[];
    expect(steps.map((step) => within(step).getAllByRole('heading')[0]!.getAttribute('aria-label'))).toEqual(['Step 1: Register its licence, Next', 'Step 2: Publish, After step 1']);
    // Step 1: where the licence is sold, and its code registered right here.
    expect(within(steps[0]!).getByRole('link', { name: /Buy a licence/ })).toHaveAttribute('href', config.marketplaceUrl);
    expect(within(steps[0]!).getByRole('button', { name: 'Register licence' })).toHaveClass('ep-button--primary');
    // Step 2: slots shown, but nothing to press: the server refuses a slot to an unregistered map.
    expect(within(steps[1]!).getByText(/Register the licence first: slots only work with registered maps\./)).toBeInTheDocument();
    expect(screen.getByRole('meter', { name: 'Basic slots' })).toHaveAttribute('aria-valuetext', '1 of 3 basic slots used');
    expect(screen.getByRole('meter', { name: 'Pro slots' })).toHaveAttribute('aria-valuetext', '0 of 1 pro slots used');
    expect(screen.queryByRole('button', { name: /Publish/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unpublish' })).not.toBeInTheDocument();
  });

  it('says a code will be accepted as a local test only, on the embedded default', async () => {
    await openPanel({ 'GET /api/client-config': () => ({ body: { result: { analytics: { posthog: null }, licences: { mode: 'local' } } } }) });
    expect(await screen.findByText(/Test install: test code accepted locally, not verified with the marketplace\./)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Purchase code' })).toBeEnabled();
  });

  it('says plainly when this server cannot register codes, and offers nothing that would fail', async () => {
    const { requests } = await openPanel({ 'GET /api/client-config': () => ({ body: { result: { analytics: { posthog: null }, licences: { mode: 'off' } } } }) });
    expect(await screen.findByRole('note')).toHaveTextContent(
      'Licence registration is not configured on this server: purchase codes cannot be checked with the marketplace. Ask whoever runs this site to connect the marketplace.',
    );
    expect(screen.getByRole('textbox', { name: 'Purchase code' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Register licence' })).toBeDisabled();
    expect(calls(requests, 'registerLicence')).toEqual([]);
  });

  it('publishes into a Basic slot: busy while the call runs, then the live state and the success', async () => {
    let answer: (value: FakeAnswer) => void = () => {};
    const { live, requests } = await openPanel(
      { 'POST /api/fn/publishMap': () => new Promise<FakeAnswer>((resolve) => (answer = resolve)) },
      item(),
      billing({}, [licence(ENDED)]),
    );
    const user = userEvent.setup();
    // The first publish that can succeed is the primary button.
    expect(screen.getByRole('button', { name: 'Publish in a Basic slot' })).toHaveClass('ep-button--primary');
    expect(screen.getByRole('button', { name: 'Publish in a Pro slot' })).not.toHaveClass('ep-button--primary');
    await user.click(screen.getByRole('button', { name: 'Publish in a Basic slot' }));

    const busy = await screen.findByRole('button', { name: /Publishing…/ });
    expect(busy).toHaveAttribute('aria-busy', 'true');
    expect(busy).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Publish in a Pro slot' })).toBeDisabled();
    expect(calls(requests, 'publishMap')).toEqual([{ mapId: 'cafe', plan: 'basic' }]);

    answer({ body: { result: null, position: '9:0' } });
    // Still busy until the live list reaches the command's position.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.getByRole('button', { name: /Publishing…/ })).toBeInTheDocument();
    live.emit(mapsTopic, [item({ state: 1, subscribed: true })], '9:0');

    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('“Cafe map” is published in a Basic slot.'));
    expect(screen.getByRole('button', { name: 'Publish in a Pro slot' })).not.toHaveClass('ep-button--primary');
    expect(status()).toHaveTextContent('Live (Basic)');
    expect(screen.queryByRole('button', { name: 'Publish in a Basic slot' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Publish in a Pro slot' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Unpublish' })).toBeEnabled();
  });

  it('publishes into a Pro slot', async () => {
    const { live, requests } = await openPanel({ 'POST /api/fn/publishMap': () => ({ body: { result: null, position: '9:0' } }) }, item(), billing({}, [licence(ENDED)]));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Publish in a Pro slot' }));
    live.emit(mapsTopic, [item({ state: 3, subscribed: true })], '9:0');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('“Cafe map” is published in a Professional slot.'));
    expect(calls(requests, 'publishMap')).toEqual([{ mapId: 'cafe', plan: 'professional' }]);
    expect(status()).toHaveTextContent('Live (Professional)');
    expect(screen.queryByRole('button', { name: 'Publish in a Pro slot' })).not.toBeInTheDocument();
  });

  it('unpublishes a live map back to a test map', async () => {
    const { live, requests } = await openPanel({ 'POST /api/fn/unpublishMap': () => ({ body: { result: null, position: '9:0' } }) }, item({ state: 1, subscribed: true }));
    expect(status()).toHaveTextContent('Live (Basic)');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Unpublish' }));
    live.emit(mapsTopic, [item({ state: 0, subscribed: false })], '9:0');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('“Cafe map” is a test map again: only you can see it.'));
    expect(calls(requests, 'unpublishMap')).toEqual([{ mapId: 'cafe' }]);
    expect(status()).toHaveTextContent('Test map — only you can see it');
    expect(screen.queryByRole('button', { name: 'Unpublish' })).not.toBeInTheDocument();
  });

  it('shows the server’s message inline when it refuses, and the buttons work again', async () => {
    const refusal = 'All 3 of your Basic slots are in use. Add slots to your subscription or unpublish another map first.';
    await openPanel({ 'POST /api/fn/publishMap': () => failure(refusal, 429) }, item(), billing({}, [licence(ENDED)]));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Publish in a Basic slot' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(refusal);
    expect(screen.getByRole('button', { name: 'Publish in a Basic slot' })).toBeEnabled();
    expect(status()).toHaveTextContent('Test map');
    expect(screen.getByRole('status')).toHaveTextContent('');
  });

  it('makes subscribing the primary step when the licence’s months are over and no slot is free', async () => {
    await openPanel({}, item(), billing({ basic: { used: 3, total: 3 }, pro: { used: 0, total: 0 } }, [licence(ENDED)]));
    expect(screen.getByText('No Basic or Pro slot is free.')).toBeInTheDocument();
    const subscribe = screen.getByRole('link', { name: 'Subscribe for a slot' });
    expect(subscribe).toHaveAttribute('href', '/#subscribe');
    expect(subscribe).toHaveClass('ep-button--primary');
    // Never a publish that Basic 3/3 and Pro 0/0 would refuse.
    expect(screen.queryByRole('button', { name: /Publish/ })).not.toBeInTheDocument();
  });

  it('names a live map on its licence', async () => {
    await openPanel({}, item({ state: 1, subscribed: false }));
    expect(status()).toHaveTextContent('Live with licence');
  });
});

describe('a map with a licence from the billing topic', () => {
  const card = () => screen.getByTestId('publish-licence');

  it('shows its Basic date, that it was not verified, and no register form', async () => {
    await openPanel({}, item({ state: 1, subscribed: false }), billing({}, [licence(RUNNING)]));
    expect(status()).toHaveTextContent('Live with licence');
    expect(status()).toHaveTextContent(/Basic usage from its registered licence until .*2099/);
    expect(card()).toHaveTextContent(/^Licence registered: Basic until .*2099/);
    expect(card().querySelector('time')).toHaveAttribute('dateTime', RUNNING);
    expect(within(card()).getByText(UNVERIFIED)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: /Step 1: Licence, Done/ })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Purchase code' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Register licence' })).not.toBeInTheDocument();
    // Already live at Basic level on its licence: only Pro and unpublishing are offered.
    expect(screen.queryByRole('button', { name: /Basic/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Publish in a Pro slot' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Unpublish' })).toBeEnabled();
  });

  it('leaves out the note for a licence the marketplace verified', async () => {
    await openPanel({}, item({ state: 1, subscribed: false }), billing({}, [licence(RUNNING, true)]));
    expect(card()).toHaveTextContent('Licence registered: Basic until');
    expect(screen.queryByText(UNVERIFIED)).not.toBeInTheDocument();
  });

  it('publishes into Basic on a valid licence without a slot: no “no Basic slot free”', async () => {
    const { live, requests } = await openPanel(
      { 'POST /api/fn/publishMap': () => ({ body: { result: null, position: '9:0' } }) },
      item({ state: 0 }),
      billing({ basic: { used: 3, total: 3 }, pro: { used: 1, total: 1 } }, [licence(RUNNING)]),
    );
    expect(status()).toHaveTextContent('Publish it on its licence (Basic, no slot needed) or in a Pro slot to make it public.');
    const note = screen.getByText(/slot is free/);
    expect(note).toHaveTextContent('No Pro slot is free.');
    expect(note).not.toHaveTextContent('Basic');

    await userEvent.setup().click(screen.getByRole('button', { name: 'Publish on its licence (Basic)' }));
    live.emit(mapsTopic, [item({ state: 1, subscribed: false })], '9:0');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('“Cafe map” is live on its licence (Basic).'));
    expect(calls(requests, 'publishMap')).toEqual([{ mapId: 'cafe', plan: 'basic' }]);
    expect(status()).toHaveTextContent('Live with licence');
  });

  it('offers to move a map from a Basic slot onto its valid licence', async () => {
    await openPanel({}, item({ state: 1, subscribed: true }), billing({}, [licence(RUNNING)]));
    expect(status()).toHaveTextContent('Live (Basic)');
    expect(screen.getByRole('button', { name: 'Move onto its licence (frees a Basic slot)' })).toBeEnabled();
  });

  it('stays live on its licence when the server takes its Pro slot away', async () => {
    const { live } = await openPanel({}, item({ state: 3, subscribed: true }), billing({}, [licence(RUNNING)]));
    expect(status()).toHaveTextContent('Live (Professional)');
    expect(screen.getByRole('button', { name: 'Publish on its licence (Basic)' })).toBeEnabled();

    live.emit(mapsTopic, [item({ state: 1, subscribed: false })], '12:0');
    await waitFor(() => expect(status()).toHaveTextContent('Live with licence'));
    expect(screen.getByRole('button', { name: 'Publish in a Pro slot' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: /Basic/ })).not.toBeInTheDocument();
  });

  it('says when the licence’s Basic period ended, and that the map needs a slot', async () => {
    await openPanel({}, item({ state: 0 }), billing({ basic: { used: 3, total: 3 } }, [licence(ENDED)]));
    expect(screen.getByRole('heading', { name: /Step 1: Licence, Ended/ })).toBeInTheDocument();
    expect(card()).toHaveTextContent(/^Licence’s 6 months of Basic ended on .*2026.*: publish it in a slot to keep it live/);
    expect(card().querySelector('time')).toHaveAttribute('dateTime', ENDED);
    expect(card()).toHaveClass('ep-publish-licence--ended');
    expect(status()).toHaveTextContent('Its licence’s Basic period has ended: publish it in a slot to make it public.');
    expect(screen.queryByRole('textbox', { name: 'Purchase code' })).not.toBeInTheDocument();
    // Basic needs a slot again, and none is free: the Pro slot that is free is the next step.
    expect(screen.queryByRole('button', { name: /Basic/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Publish in a Pro slot' })).toHaveClass('ep-button--primary');
    expect(screen.getByText(/slot is free/)).toHaveTextContent('No Basic slot is free.');
    expect(screen.getByRole('link', { name: 'Subscribe or add slots' })).toHaveAttribute('href', '/#subscribe');
  });

  it('does not warn about an ended period while a slot keeps the map live', async () => {
    await openPanel({}, item({ state: 1, subscribed: true }), billing({}, [licence(ENDED)]));
    expect(card()).toHaveTextContent(/ended on .*; its slot keeps it live/);
    expect(card()).not.toHaveClass('ep-publish-licence--ended');
    expect(screen.queryByRole('button', { name: /Basic/ })).not.toBeInTheDocument();
  });

  it('shows a licence only for its own map', async () => {
    await openPanel({}, item({ state: 0 }), billing({}, [{ ...licence(RUNNING), mapId: 'other' }]));
    expect(screen.getByRole('textbox', { name: 'Purchase code' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Publish/ })).not.toBeInTheDocument();
  });
});

describe('registering a purchase code', () => {
  const code = () => screen.getByRole('textbox', { name: 'Purchase code' });

  it('checks the format before calling the server', async () => {
    const { requests } = await openPanel();
    const user = userEvent.setup();
    await user.type(code(), 'not-a-code');
    await user.click(screen.getByRole('button', { name: 'Register licence' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Purchase code must look like 1a2b3c4d-1a2b-1a2b-1a2b-1a2b3c4d5e6f.');
    expect(code()).toHaveAttribute('aria-invalid', 'true');
    expect(calls(requests, 'registerLicence')).toEqual([]);
  });

  it('registers the code and shows the Basic date and that it was not verified', async () => {
    let answer: (value: FakeAnswer) => void = () => {};
    const { requests } = await openPanel({ 'POST /api/fn/registerLicence': () => new Promise<FakeAnswer>((resolve) => (answer = resolve)) });
    const user = userEvent.setup();
    await user.type(code(), '  9F1C2B3A-4D5E-4F60-8A7B-1C2D3E4F5A6B ');
    await user.click(screen.getByRole('button', { name: 'Register licence' }));
    expect(await screen.findByRole('button', { name: /Registering…/ })).toBeDisabled();
    expect(calls(requests, 'registerLicence')).toEqual([{ mapId: 'cafe', purchaseCode: '9f1c2b3a-4d5e-4f60-8a7b-1c2d3e4f5a6b' }]);

    answer({ body: { result: { verified: false, basicUntil: RUNNING }, position: null } });
    const registered = await screen.findByText(/Licence registered: Basic until/);
    expect(registered.querySelector('time')).toHaveAttribute('dateTime', RUNNING);
    expect(registered).toHaveTextContent(/2099/);
    expect(screen.getByText(UNVERIFIED)).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(/Licence registered: “Cafe map” is live on it \(Basic\) until .*2099/);
    // Step 2 is open now: publishing on the licence is the next step.
    expect(screen.getByRole('button', { name: 'Publish on its licence (Basic)' })).toHaveClass('ep-button--primary');
    expect(screen.queryByRole('textbox', { name: 'Purchase code' })).not.toBeInTheDocument();
  });

  it('keeps the licence once the billing topic carries it', async () => {
    const { live } = await openPanel({ 'POST /api/fn/registerLicence': () => ({ body: { result: { verified: true, basicUntil: RUNNING }, position: '9:0' } }) });
    const user = userEvent.setup();
    await user.type(code(), '9f1c2b3a-4d5e-4f60-8a7b-1c2d3e4f5a6b');
    await user.click(screen.getByRole('button', { name: 'Register licence' }));
    live.emit(mapsTopic, [item({ state: 1, subscribed: false })], '9:0');
    await screen.findByText(/Licence registered: Basic until/);
    live.emit(billingTopic, billing({}, [licence(RUNNING, true)]), '9:0');
    expect(await screen.findByTestId('publish-status')).toHaveTextContent('Live with licence');
    expect(screen.getByTestId('publish-licence')).toHaveTextContent(/Licence registered: Basic until .*2099/);
    expect(screen.queryByRole('textbox', { name: 'Purchase code' })).not.toBeInTheDocument();
  });

  it('leaves out the note when the marketplace verified the code', async () => {
    await openPanel({ 'POST /api/fn/registerLicence': () => ({ body: { result: { verified: true, basicUntil: RUNNING }, position: null } }) });
    const user = userEvent.setup();
    await user.type(code(), '9f1c2b3a-4d5e-4f60-8a7b-1c2d3e4f5a6b');
    await user.click(screen.getByRole('button', { name: 'Register licence' }));
    await screen.findByText(/Licence registered: Basic until/);
    expect(screen.queryByText(UNVERIFIED)).not.toBeInTheDocument();
  });

  it('shows the server’s refusal', async () => {
    await openPanel({ 'POST /api/fn/registerLicence': () => failure('This purchase code is already registered to a map.', 409) });
    const user = userEvent.setup();
    await user.type(code(), '9f1c2b3a-4d5e-4f60-8a7b-1c2d3e4f5a6b');
    await user.click(screen.getByRole('button', { name: 'Register licence' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This purchase code is already registered to a map.');
    expect(code()).toHaveValue('9f1c2b3a-4d5e-4f60-8a7b-1c2d3e4f5a6b');
  });
});
