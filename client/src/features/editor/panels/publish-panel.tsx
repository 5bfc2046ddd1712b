/**
 * Publish (spec §1, §4, §5): where the map stands (test, live on Basic or Professional, live on
 * its licence), the owner's slots, the buttons that put the map into a slot or take it out, and
 * the form that registers a marketplace purchase code for it. The map's state comes from the
 * session's live maps list, so a change made here (or by the server when slots shrink) shows at
 * once; a licence is only known here once it is registered in this tab (no topic carries it).
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { LICENCE_BASIC_MONTHS, PLAN_NAMES, PurchaseCode, type PlanId, type SlotUsage } from '../../../../../events/billing-api';
import { MapState } from '../../../../../events/map-states';
import { topics } from '../../../../../events/topics';
import { Spinner } from '../../../components/ui/spinner';
import { api as defaultApi, toApiError, type ApiClient } from '../../../lib/api';
import { useLiveClient } from '../../../lib/live';
import { useSession } from '../../../lib/session';
import { formatDate } from '../../../utils/format-date';
import { SlotMeter } from '../../billing/slot-meter';
import { SUBSCRIBE_HASH } from '../../billing/subscribe-modal';
import { useBilling } from '../../billing/use-billing';
import './panels.css';
import './publish.css';

/** How long to wait for the live list to show the new state before announcing success anyway. */
const CATCH_UP_TIMEOUT_MS = 8_000;

export const PURCHASE_CODE_EXAMPLE = '1a2b3c4d-1a2b-1a2b-1a2b-1a2b3c4d5e6f';

export interface PublishPanelProps {
  mapId: string;
  title: string;
  /** The state the map was opened with; the live maps list overrides it once it has the map. */
  state: number | null;
  /** The API client (tests pass one; the app's by default). */
  api?: ApiClient;
}

type Action = PlanId | 'unpublish';

interface Status {
  tone: 'test' | 'live' | 'pro' | 'licence' | 'managed';
  label: string;
  detail: string;
}

/** The map's status line: state 1 without the subscribed flag is live on its licence, not a slot. */
export function publishStatus(state: number, subscribed: boolean): Status {
  if (state === MapState.pro) return { tone: 'pro', label: 'Live (Professional)', detail: 'Published in a Pro slot: anyone with the link can see it.' };
  if (state === MapState.live && subscribed) return { tone: 'live', label: 'Live (Basic)', detail: 'Published in a Basic slot: anyone with the link can see it.' };
  if (state === MapState.live) return { tone: 'licence', label: 'Live with licence', detail: 'Basic usage from its registered licence: anyone with the link can see it.' };
  if (state === MapState.demo || state === MapState.adm) return { tone: 'managed', label: 'Managed by Mapfold', detail: 'This map is published by Mapfold and cannot be changed here.' };
  return { tone: 'test', label: 'Test map — only you can see it', detail: 'Publish it in a slot, or register its purchase code, to make it public.' };
}

const free = (slots: SlotUsage, plan: PlanId) => {
  const count = plan === 'basic' ? slots.basic : slots.pro;
  return Math.max(0, count.total - count.used);
};

export function PublishPanel({ mapId, title, state: openedState, api = defaultApi }: PublishPanelProps) {
  const session = useSession();
  const live = useLiveClient();
  const uid = session.user?.uid ?? null;
  const admin = session.admin || Boolean(session.user?.admin);
  const { billing } = useBilling(uid);
  const listed = session.maps.find((map) => map.id === mapId);
  const state = listed?.state ?? openedState ?? MapState.test;
  const subscribed = listed?.subscribed ?? false;
  const status = publishStatus(state, subscribed);

  const [busy, setBusy] = useState<Action | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const ids = useId();

  // A new map opened in the same editor starts clean.
  useEffect(() => {
    setError(null);
    setAnnouncement('');
  }, [mapId]);

  const run = async (action: Action) => {
    if (busy) return;
    setBusy(action);
    setError(null);
    setAnnouncement('');
    try {
      const answer = action === 'unpublish' ? await api.callFunction('unpublishMap', { mapId }) : await api.callFunction('publishMap', { mapId, plan: action });
      // The status line reads the live list: wait for it so the success and the new state agree.
      if (answer.position && uid) {
        await live.reached(topics.maps(uid), answer.position, { signal: AbortSignal.timeout(CATCH_UP_TIMEOUT_MS) }).catch(() => undefined);
      }
      setAnnouncement(
        action === 'unpublish' ? `“${title}” is a test map again: only you can see it.` : `“${title}” is published in a ${PLAN_NAMES[action]} slot.`,
      );
    } catch (failure) {
      setError(toApiError(failure).message);
    } finally {
      setBusy(null);
    }
  };

  const managed = status.tone === 'managed';
  const published = state === MapState.live || state === MapState.pro;
  // Basic is offered unless the map is already live at Basic level (slot or licence).
  const offerBasic = !managed && state !== MapState.live;
  const offerPro = !managed && state !== MapState.pro;
  const noSlotFor = (plan: PlanId) => billing !== undefined && !admin && free(billing.slots, plan) === 0;
  const full = [offerBasic && noSlotFor('basic') ? 'Basic' : null, offerPro && noSlotFor('professional') ? 'Pro' : null].filter(Boolean) as string[];

  return (
    <div className="ep-panel ep-publish">
      <section className="ep-section" aria-labelledby={`${ids}-status`}>
        <h3 id={`${ids}-status`} className="ep-section__title">
          Status
        </h3>
        <div className={`ep-publish-status ep-publish-status--${status.tone}`} data-testid="publish-status">
          <span className="ep-publish-status__dot" aria-hidden="true" />
          <div>
            <p className="ep-publish-status__label">{status.label}</p>
            <p className="ep-publish-status__detail">{status.detail}</p>
          </div>
        </div>
      </section>

      {managed ? null : (
        <section className="ep-section" aria-labelledby={`${ids}-slots`}>
          <h3 id={`${ids}-slots`} className="ep-section__title">
            Slots
          </h3>
          {billing ? (
            <SlotMeter slots={billing.slots} kinds={['basic', 'pro']} className="ep-publish-meter" />
          ) : (
            <p className="ep-hint ep-publish-loading">
              <Spinner size="sm" label="" /> Loading your slots…
            </p>
          )}
          <div className="ep-publish-actions">
            {offerBasic ? (
              <PublishButton action="basic" busy={busy} onClick={run} primary={!published}>
                Publish in a Basic slot
              </PublishButton>
            ) : null}
            {offerPro ? (
              <PublishButton action="professional" busy={busy} onClick={run}>
                Publish in a Pro slot
              </PublishButton>
            ) : null}
            {published ? (
              <PublishButton action="unpublish" busy={busy} onClick={run}>
                Unpublish
              </PublishButton>
            ) : null}
          </div>
          {full.length > 0 ? (
            <p className="ep-hint ep-publish-full">
              {full.length === 2 ? 'No Basic or Pro slot is free.' : `No ${full[0]} slot is free.`}{' '}
              <Link to={{ hash: SUBSCRIBE_HASH }}>Subscribe or add slots</Link>
            </p>
          ) : null}
          {error ? (
            <p className="ep-publish-error" role="alert">
              {error}
            </p>
          ) : null}
          {/* Always in the page, so screen readers hear the success when it is written. */}
          <p className="ep-publish-success" role="status" aria-live="polite">
            {announcement}
          </p>
          <p className="ep-hint">
            Slots only work with registered maps; a registered licence gives this map {LICENCE_BASIC_MONTHS} months of Basic, then it needs a slot.
          </p>
        </section>
      )}

      {managed ? null : <LicenceForm mapId={mapId} api={api} uid={uid} />}

    </div>
  );
}

function PublishButton({ action, busy, onClick, primary = false, children }: { action: Action; busy: Action | null; onClick(action: Action): void; primary?: boolean; children: string }) {
  const loading = busy === action;
  return (
    <button
      type="button"
      className={['ep-button', 'ep-publish-button', primary ? 'ep-button--primary' : ''].filter(Boolean).join(' ')}
      disabled={busy !== null}
      aria-busy={loading || undefined}
      onClick={() => onClick(action)}
    >
      {loading ? <Spinner size="sm" label="" /> : null}
      <span>{loading ? (action === 'unpublish' ? 'Unpublishing…' : 'Publishing…') : children}</span>
    </button>
  );
}

interface Registered {
  verified: boolean;
  basicUntil: string;
}

/** Registers a marketplace purchase code for this map: the format is checked here, the rest by the server. */
function LicenceForm({ mapId, api, uid }: { mapId: string; api: ApiClient; uid: string | null }) {
  const live = useLiveClient();
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [registered, setRegistered] = useState<Registered | null>(null);
  const ids = useId();

  useEffect(() => {
    setRegistered(null);
    setCode('');
    setTouched(false);
    setError(null);
  }, [mapId]);

  const parsed = PurchaseCode.safeParse(code);
  const formatError = touched && code.trim() !== '' && !parsed.success ? parsed.error.issues[0]!.message : null;
  const shownError = formatError ?? error;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (busy) return;
    if (!parsed.success) {
      setError(code.trim() === '' ? 'Enter the purchase code from your marketplace receipt.' : null);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const answer = await api.callFunction('registerLicence', { mapId, purchaseCode: parsed.data });
      // Registering makes a test map live: let the status line catch up first.
      if (answer.position && uid) {
        await live.reached(topics.maps(uid), answer.position, { signal: AbortSignal.timeout(CATCH_UP_TIMEOUT_MS) }).catch(() => undefined);
      }
      setRegistered(answer.result);
    } catch (failure) {
      setError(toApiError(failure).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="ep-section" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} className="ep-section__title">
        Register a purchase code
      </h3>
      {registered ? (
        <div className="ep-publish-licence" role="status">
          <p className="ep-publish-licence__title">
            Licence registered: Basic until <time dateTime={registered.basicUntil}>{formatDate(registered.basicUntil)}</time>
          </p>
          {registered.verified ? null : <p className="ep-publish-licence__note">(not verified with the marketplace)</p>}
        </div>
      ) : (
        <form className="ep-publish-form" noValidate onSubmit={(event) => void submit(event)}>
          <div className="ep-field">
            <label htmlFor={`${ids}-code`}>Purchase code</label>
            <input
              id={`${ids}-code`}
              className="ep-input ep-publish-code"
              value={code}
              placeholder={PURCHASE_CODE_EXAMPLE}
              autoComplete="off"
              spellCheck={false}
              aria-invalid={shownError ? true : undefined}
              aria-describedby={`${ids}-hint${shownError ? ` ${ids}-error` : ''}`}
              onChange={(event) => {
                setCode(event.target.value);
                setError(null);
              }}
              onBlur={() => setTouched(true)}
            />
            <p id={`${ids}-hint`} className="ep-hint">
              From your marketplace receipt, like {PURCHASE_CODE_EXAMPLE}. One code serves one map.
            </p>
            {shownError ? (
              <p id={`${ids}-error`} className="ep-publish-error" role="alert">
                {shownError}
              </p>
            ) : null}
          </div>
          <button type="submit" className="ep-button ep-publish-button" disabled={busy} aria-busy={busy || undefined}>
            {busy ? <Spinner size="sm" label="" /> : null}
            <span>{busy ? 'Registering…' : 'Register licence'}</span>
          </button>
        </form>
      )}
    </section>
  );
}
