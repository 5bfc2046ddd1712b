/**
 * Publish (spec §1, §2, §4, §5): where the map stands (test, live on Basic or Professional, live
 * on its licence), then the steps a customer walks, in order: 1. the map's licence (bought
 * through a marketplace, its purchase code registered right here: slots only work with
 * registered maps), 2. publishing it, on the licence's Basic or in a slot. Only what the server
 * would accept is a button (publish-steps.ts), so the primary button is always the next step
 * that can succeed; a missing slot is said with the way to subscribe. The map's state comes from
 * the session's live maps list and its licence from `billing:{uid}`, so a change made here (or by
 * the server when slots shrink or a licence's Basic period ends) shows at once. While the
 * licence's Basic period lasts, Basic takes no slot: the map is live on its licence, and the
 * server keeps it there (state 1, not subscribed) when it loses a Pro slot.
 */
import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { LICENCE_BASIC_MONTHS, PLAN_NAMES, type PlanId } from '../../../../../events/billing-api';
import { MapState } from '../../../../../events/map-states';
import { topics } from '../../../../../events/topics';
import { SlotMeter } from '../../../components/slot-meter';
import { Spinner } from '../../../components/ui/spinner';
import { api as defaultApi, toApiError, type ApiClient } from '../../../lib/api';
import { useLicenceMode } from '../../../lib/licence-mode';
import { useLiveClient } from '../../../lib/live';
import { SUBSCRIBE_HASH } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { useBilling } from '../../../lib/use-billing';
import { formatDate } from '../../../utils/format-date';
import { CATCH_UP_TIMEOUT_MS, LicenceCard, LicenceForm, licenceActive, type KnownLicence } from './publish-licence-step';
import { PublishChanges, type PublishChangesProps } from './publish-changes';
import { publishSteps } from './publish-steps';
import './panels.css';
import './publish.css';

export { licenceActive, PURCHASE_CODE_EXAMPLE, type KnownLicence } from './publish-licence-step';

export interface PublishPanelProps {
  mapId: string;
  title: string;
  /** The state the map was opened with; the live maps list overrides it once it has the map. */
  state: number | null;
  /** The API client (tests pass one; the app's by default). */
  api?: ApiClient;
  /** Shows a changed location on the map from the review of changes (publish-changes.tsx). */
  onShowLocation?: PublishChangesProps['onShowLocation'];
}

type Action = PlanId | 'unpublish';

interface Status {
  tone: 'test' | 'live' | 'pro' | 'licence' | 'managed';
  label: string;
  detail: string;
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
    ? 'Register its licence, then publish it, to make it public.'
    : licenceActive(licence, now)
      ? 'Publish it on its licence (Basic, no slot needed) or in a Pro slot to make it public.'
      : 'Its licence’s Basic period has ended: publish it in a slot to make it public.';
  return { tone: 'test', label: 'Test map — only you can see it', detail };
}

/** The feedback after an action, in the panel (a live region, so screen readers hear it). */
interface Feedback {
  tone: 'success' | 'error';
  text: string;
}

export function PublishPanel({ mapId, title, state: openedState, api = defaultApi, onShowLocation }: PublishPanelProps) {
  const session = useSession();
  const live = useLiveClient();
  const mode = useLicenceMode(api);
  const uid = session.user?.uid ?? null;
  const admin = session.admin || Boolean(session.user?.admin);
  const { billing } = useBilling(uid);
  const listed = session.maps.find((map) => map.id === mapId);
  const state = listed?.state ?? openedState ?? MapState.test;
  const subscribed = listed?.subscribed ?? false;
  // The topic is the source of truth; a licence registered here shows before the topic catches up.
  const [registeredHere, setRegisteredHere] = useState<(KnownLicence & { mapId: string }) | null>(null);
  const licence: KnownLicence | null = billing?.licences.find((entry) => entry.mapId === mapId) ?? (registeredHere?.mapId === mapId ? registeredHere : null);
  const status = publishStatus(state, subscribed, licence);
  const steps = publishSteps({ state, subscribed, admin, licence: !licence ? 'none' : licenceActive(licence) ? 'active' : 'ended', slots: billing?.slots });

  const [busy, setBusy] = useState<Action | null>(null);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const ids = useId();

  // A new map opened in the same editor starts clean.
  useEffect(() => setFeedback(null), [mapId]);

  const run = async (action: Action) => {
    if (busy) return;
    const onLicence = action === 'basic' && steps.licence === 'active' && !admin;
    setBusy(action);
    setFeedback(null);
    try {
      const answer = action === 'unpublish' ? await api.callFunction('unpublishMap', { mapId }) : await api.callFunction('publishMap', { mapId, plan: action });
      // The status line reads the live list: wait for it so the success and the new state agree.
      if (answer.position && uid) {
        await live.reached(topics.maps(uid), answer.position, { signal: AbortSignal.timeout(CATCH_UP_TIMEOUT_MS) }).catch(() => undefined);
      }
      setFeedback({
        tone: 'success',
        text:
          action === 'unpublish'
            ? `“${title}” is a test map again: only you can see it.`
            : onLicence
              ? `“${title}” is live on its licence (Basic).`
              : `“${title}” is published in a ${PLAN_NAMES[action]} slot.`,
      });
    } catch (failure) {
      setFeedback({ tone: 'error', text: toApiError(failure).message });
    } finally {
      setBusy(null);
    }
  };

  const registered = (known: KnownLicence) => {
    setRegisteredHere({ mapId, ...known });
    // Registering puts a test map live on the licence at once (the server does it).
    const until = formatDate(known.basicUntil);
    setFeedback({
      tone: 'success',
      text: state < MapState.live ? `Licence registered: “${title}” is live on it (Basic) until ${until}.` : `Licence registered: Basic until ${until}.`,
    });
  };

  if (status.tone === 'managed') {
    return (
      <div className="ep-panel ep-publish">
        <StatusSection ids={ids} status={status} />
      </div>
    );
  }

  const primaryIndex = steps.published ? -1 : 0;
  const step2: StepState = steps.locked ? 'locked' : steps.published ? 'done' : 'next';
  return (
    <div className="ep-panel ep-publish">
      <StatusSection ids={ids} status={status} />

      <ol className="ep-publish-steps" aria-label="Steps to publish">
        {admin && !licence ? null : (
          <Step number={1} title={licence ? 'Licence' : 'Register its licence'} state={licence ? (steps.licence === 'ended' && !(subscribed && steps.published) ? 'warn' : 'done') : 'next'}>
            {licence ? (
              <LicenceCard licence={licence} inSlot={subscribed && steps.published} />
            ) : (
              <LicenceForm mapId={mapId} api={api} uid={uid} mode={mode} onRegistered={registered} />
            )}
          </Step>
        )}

        <Step number={admin && !licence ? 1 : 2} title="Publish" state={step2}>
          <div className="ep-publish-step__body">
            {steps.locked ? (
              <p className="ep-publish-step__text">
                Register the licence first: slots only work with registered maps. Its {LICENCE_BASIC_MONTHS} months of Basic then need no slot.
              </p>
            ) : null}
            {billing ? (
              <SlotMeter slots={billing.slots} kinds={['basic', 'pro']} className="ep-publish-meter" />
            ) : (
              <p className="ep-hint ep-publish-loading">
                <Spinner size="sm" label="" /> Loading your slots…
              </p>
            )}
            {steps.choices.length > 0 || steps.published ? (
              <div className="ep-publish-actions">
                {steps.choices.map((choice, index) => (
                  <PublishButton key={choice.plan} action={choice.plan} busy={busy} onClick={run} primary={index === primaryIndex}>
                    {choice.label}
                  </PublishButton>
                ))}
                {steps.published ? (
                  <PublishButton action="unpublish" busy={busy} onClick={run}>
                    Unpublish
                  </PublishButton>
                ) : null}
              </div>
            ) : null}
            {steps.noSlot.length > 0 ? <NoSlot plans={steps.noSlot} primary={!steps.published && steps.choices.length === 0} /> : null}
            {feedback?.tone === 'error' ? (
              <p className="ep-publish-feedback ep-publish-feedback--error" role="alert">
                <FeedbackIcon tone="error" />
                <span>{feedback.text}</span>
              </p>
            ) : null}
            {/* Always in the page, so screen readers hear the success when it is written. */}
            <p className={`ep-publish-feedback${feedback?.tone === 'success' ? ' ep-publish-feedback--success' : ''}`} role="status" aria-live="polite">
              {feedback?.tone === 'success' ? (
                <>
                  <FeedbackIcon tone="success" />
                  <span>{feedback.text}</span>
                </>
              ) : null}
            </p>
          </div>
        </Step>
      </ol>

      <PublishChanges mapId={mapId} api={api} {...(onShowLocation ? { onShowLocation } : {})} />

    </div>
  );
}

function StatusSection({ ids, status }: { ids: string; status: Status }) {
  return (
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
  );
}

type StepState = 'next' | 'done' | 'locked' | 'warn';
const STEP_BADGES: Record<StepState, string> = { next: 'Next', done: 'Done', locked: 'After step 1', warn: 'Ended' };

/** One numbered step: its heading says where it stands, for sighted and screen-reader users alike. */
function Step({ number, title, state, children }: { number: number; title: string; state: StepState; children: ReactNode }) {
  return (
    <li className={`ep-publish-step ep-publish-step--${state}`}>
      <h3 className="ep-publish-step__title" aria-label={`Step ${number}: ${title}, ${STEP_BADGES[state]}`}>
        <span className="ep-publish-step__number" aria-hidden="true">
          {state === 'done' ? '✓' : number}
        </span>
        <span className="ep-publish-step__name">{title}</span>
        <span className="ep-publish-step__badge">{STEP_BADGES[state]}</span>
      </h3>
      {children}
    </li>
  );
}

/** The plans without a free slot, and the way to one (the subscribe modal). */
function NoSlot({ plans, primary }: { plans: PlanId[]; primary: boolean }) {
  const names = plans.map((plan) => (plan === 'basic' ? 'Basic' : 'Pro'));
  return (
    <div className="ep-publish-full">
      <p>{names.length === 2 ? 'No Basic or Pro slot is free.' : `No ${names[0]} slot is free.`}</p>
      <Link to={{ hash: SUBSCRIBE_HASH }} className={primary ? 'ep-button ep-button--primary ep-publish-button' : undefined}>
        {primary ? 'Subscribe for a slot' : 'Subscribe or add slots'}
      </Link>
    </div>
  );
}

function FeedbackIcon({ tone }: { tone: Feedback['tone'] }) {
  return (
    <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
      {tone === 'success' ? (
        <path d="m5 10.5 3 3 7-7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
      ) : (
        <path d="M10 6v5m0 3h.01" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
      )}
    </svg>
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
