/**
 * Publish (spec §1, §4, §5): where the map stands (test, live on Basic or Professional, live on
 * its licence), the owner's slots, the buttons that put the map into a slot or take it out, and
 * the form that registers a marketplace purchase code for it. The map's state comes from the
 * session's live maps list and its licence from `billing:{uid}`, so a change made here (or by the
 * server when slots shrink or a licence's Basic period ends) shows at once. While the licence's
 * Basic period lasts, Basic takes no slot: the map is live on its licence, and the server keeps it
 * there (state 1, not subscribed) when it loses a Pro slot.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { LICENCE_BASIC_MONTHS, PLAN_NAMES, PurchaseCode, type MapLicenceView, type PlanId, type SlotUsage } from '../../../../../events/billing-api';
import { MapState } from '../../../../../events/map-states';
import { topics } from '../../../../../events/topics';
import { SlotMeter } from '../../../components/slot-meter';
import { Spinner } from '../../../components/ui/spinner';
import { api as defaultApi, toApiError, type ApiClient } from '../../../lib/api';
import { useLiveClient } from '../../../lib/live';
import { SUBSCRIBE_HASH } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { useBilling } from '../../../lib/use-billing';
import { formatDate } from '../../../utils/format-date';
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

/** What the panel knows of the map's licence: from `billing:{uid}`, or registered in this tab a moment ago. */
export type KnownLicence = Pick<MapLicenceView, 'verified' | 'basicUntil'>;

/** True while the licence's 6 months of Basic last (the server decides the same way, against its clock). */
export function licenceActive(licence: KnownLicence | null, now: Date = new Date()): boolean {
  return licence !== null && new Date(licence.basicUntil).getTime() > now.getTime();
}

/** The map's status line: state 1 without the subscribed flag is live on its licence, not a slot. */
export function publishStatus(state: number, subscribed: boolean, licence: KnownLicence | null = null, now: Date = new Date()): Status {
  if (state === MapState.pro) return { tone: 'pro', label: 'Live (Professional)', detail: 'Published in a Pro slot: anyone with the link can see it.' };
  if (state === MapState.live && subscribed) return { tone: 'live', label: 'Live (Basic)', detail: 'Published in a Basic slot: anyone with the link can see it.' };
  if (state === MapState.live) {
    const until = licence ? ` until ${formatDate(licence.basicUntil)}` : '';
    return { tone: 'licence', label: 'Live with licence', detail: `Basic usage from its registered licence${until}: anyone with the link can see it.` };
  }
  if (state === MapState.demo || state === MapState.adm) return { tone: 'managed', label: 'Managed by Mapfold', detail: 'This map is published by Mapfold and cannot be changed here.' };
  const detail = !licence
    ? 'Publish it in a slot, or register its purchase code, to make it public.'
    : licenceActive(licence, now)
      ? 'Publish it on its licence (Basic, no slot needed) or in a Pro slot to make it public.'
      : 'Its licence’s Basic period has ended: publish it in a slot to make it public.';
  return { tone: 'test', label: 'Test map — only you can see it', detail };
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
  // The topic is the source of truth; a licence registered here shows before the topic catches up.
  const [registeredHere, setRegisteredHere] = useState<(KnownLicence & { mapId: string }) | null>(null);
  const licence: KnownLicence | null = billing?.licences.find((entry) => entry.mapId === mapId) ?? (registeredHere?.mapId === mapId ? registeredHere : null);
  // Admins publish without slots anyway; for everyone else Basic on a valid licence takes none.
  const onLicence = !admin && licenceActive(licence);
  const status = publishStatus(state, subscribed, licence);

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
        action === 'unpublish'
          ? `“${title}” is a test map again: only you can see it.`
          : action === 'basic' && onLicence
            ? `“${title}” is live on its licence (Basic).`
            : `“${title}” is published in a ${PLAN_NAMES[action]} slot.`,
      );
    } catch (failure) {
      setError(toApiError(failure).message);
    } finally {
      setBusy(null);
    }
  };

  const managed = status.tone === 'managed';
  const published = state === MapState.live || state === MapState.pro;
  // Basic is offered unless the map is already live at Basic level on its licence, or in a Basic
  // slot it cannot leave for its licence (moving onto the licence frees the slot).
  const offerBasic = !managed && (state !== MapState.live || (subscribed && onLicence));
  const offerPro = !managed && state !== MapState.pro;
  const basicLabel = !onLicence ? 'Publish in a Basic slot' : state === MapState.live ? 'Move onto its licence (frees a Basic slot)' : 'Publish on its licence (Basic)';
  const noSlotFor = (plan: PlanId) => billing !== undefined && !admin && !(plan === 'basic' && onLicence) && free(billing.slots, plan) === 0;
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
                {basicLabel}
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
          {licence ? null : (
            <p className="ep-hint">
              Slots only work with registered maps; a registered licence gives this map {LICENCE_BASIC_MONTHS} months of Basic, then it needs a slot.
            </p>
          )}
        </section>
      )}

      {managed ? null : (
        <LicenceSection
          mapId={mapId}
          api={api}
          uid={uid}
          licence={licence}
          inSlot={subscribed && published}
          announce={registeredHere?.mapId === mapId}
          onRegistered={(registered) => setRegisteredHere({ mapId, ...registered })}
        />
      )}

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

interface LicenceSectionProps {
  mapId: string;
  api: ApiClient;
  uid: string | null;
  licence: KnownLicence | null;
  /** The map is live in a slot of its own (its licence's period no longer matters to it). */
  inSlot: boolean;
  /** The licence was registered in this tab just now: its card is announced. */
  announce: boolean;
  onRegistered(licence: KnownLicence): void;
}

/**
 * The map's licence: its Basic period (running or ended) once one is registered (one code serves
 * one map, and a map takes one licence, so there is no form then), or the form that registers a
 * marketplace purchase code: the format is checked here, the rest by the server.
 */
function LicenceSection({ mapId, api, uid, licence, inSlot, announce, onRegistered }: LicenceSectionProps) {
  const live = useLiveClient();
  const [code, setCode] = useState('');
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const ids = useId();

  useEffect(() => {
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
      onRegistered(answer.result);
    } catch (failure) {
      setError(toApiError(failure).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="ep-section" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} className="ep-section__title">
        {licence ? 'Licence' : 'Register a purchase code'}
      </h3>
      {licence ? (
        <LicenceCard licence={licence} inSlot={inSlot} announce={announce} />
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

function LicenceCard({ licence, inSlot, announce }: { licence: KnownLicence; inSlot: boolean; announce: boolean }) {
  const until = <time dateTime={licence.basicUntil}>{formatDate(licence.basicUntil)}</time>;
  const active = licenceActive(licence);
  // An ended period is a warning only while the map is not kept live by a slot.
  const warn = !active && !inSlot;
  return (
    <div className={`ep-publish-licence${warn ? ' ep-publish-licence--ended' : ''}`} role={announce ? 'status' : undefined} data-testid="publish-licence">
      <p className="ep-publish-licence__title">
        {active ? (
          <>Licence registered: Basic until {until}</>
        ) : inSlot ? (
          <>Licence registered: its {LICENCE_BASIC_MONTHS} months of Basic ended on {until}; its slot keeps it live</>
        ) : (
          <>Licence’s {LICENCE_BASIC_MONTHS} months of Basic ended on {until}: publish it in a slot to keep it live</>
        )}
      </p>
      {licence.verified ? null : <p className="ep-publish-licence__note">(not verified with the marketplace)</p>}
    </div>
  );
}
