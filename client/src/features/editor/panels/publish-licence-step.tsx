/**
 * Publish's first step: the map's licence. Once one is registered, its Basic period (running or
 * ended; one code serves one map, and a map takes one licence, so there is no form then);
 * before, where the licence is sold and the form that registers its purchase code right here.
 * The format is checked here, the rest by the server. What the server does with the code is
 * said before it is typed: checked with the marketplace, accepted as a local test only, or
 * not registrable on this server at all (production without the marketplace token).
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { LICENCE_BASIC_MONTHS, LICENCES_NOT_CONFIGURED, PurchaseCode, type LicenceMode, type MapLicenceView } from '../../../../../events/billing-api';
import { topics } from '../../../../../events/topics';
import { Spinner } from '../../../components/ui/spinner';
import { toApiError, type ApiClient } from '../../../lib/api';
import { config } from '../../../lib/config';
import { useLiveClient } from '../../../lib/live';
import { formatDate } from '../../../utils/format-date';

/** How long to wait for the live list to show the new state before announcing success anyway. */
export const CATCH_UP_TIMEOUT_MS = 8_000;

export const PURCHASE_CODE_EXAMPLE = '1a2b3c4d-1a2b-1a2b-1a2b-1a2b3c4d5e6f';

/** Said of a licence accepted without asking the marketplace (the local test install). */
export const UNVERIFIED_NOTE = 'Test code accepted locally, not verified with the marketplace.';

/** What the panel knows of the map's licence: from `billing:{uid}`, or registered in this tab a moment ago. */
export type KnownLicence = Pick<MapLicenceView, 'verified' | 'basicUntil'>;

/** True while the licence's 6 months of Basic last (the server decides the same way, against its clock). */
export function licenceActive(licence: KnownLicence | null, now: Date = new Date()): boolean {
  return licence !== null && new Date(licence.basicUntil).getTime() > now.getTime();
}

export function MarketplaceLink({ children = 'Buy a licence' }: { children?: string }) {
  return (
    <a className="ep-publish-buy" href={config.marketplaceUrl} target="_blank" rel="noopener noreferrer">
      {children}
      <span className="visually-hidden"> (opens the marketplace in a new tab)</span>
      <svg viewBox="0 0 16 16" width="12" height="12" aria-hidden="true" focusable="false">
        <path d="M6 3h7v7M13 3 5 11" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </a>
  );
}

export interface LicenceFormProps {
  mapId: string;
  api: ApiClient;
  uid: string | null;
  mode: LicenceMode | null;
  /** The licence form's submit is the panel's primary button while no licence is registered. */
  onRegistered(licence: KnownLicence): void;
}

export function LicenceForm({ mapId, api, uid, mode, onRegistered }: LicenceFormProps) {
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

  const off = mode === 'off';
  const parsed = PurchaseCode.safeParse(code);
  const formatError = touched && code.trim() !== '' && !parsed.success ? parsed.error.issues[0]!.message : null;
  const shownError = formatError ?? error;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (busy || off) return;
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
    <div className="ep-publish-step__body">
      <p className="ep-publish-step__text">
        Each map needs its own software licence, bought through a marketplace. Its purchase code gives this map {LICENCE_BASIC_MONTHS} months of Basic,
        no slot needed. <MarketplaceLink />
      </p>
      {off ? (
        <p className="ep-publish-mode ep-publish-mode--off" role="note">
          {LICENCES_NOT_CONFIGURED} Ask whoever runs this site to connect the marketplace.
        </p>
      ) : null}
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
            disabled={off}
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
            {mode === 'local' ? <span className="ep-publish-mode ep-publish-mode--local"> Test install: {UNVERIFIED_NOTE.charAt(0).toLowerCase() + UNVERIFIED_NOTE.slice(1)}</span> : null}
            {mode === 'marketplace' ? ' Checked with the marketplace when you register it.' : null}
          </p>
          {shownError ? (
            <p id={`${ids}-error`} className="ep-publish-error" role="alert">
              {shownError}
            </p>
          ) : null}
        </div>
        <button type="submit" className="ep-button ep-button--primary ep-publish-button" disabled={busy || off} aria-busy={busy || undefined}>
          {busy ? <Spinner size="sm" label="" /> : null}
          <span>{busy ? 'Registering…' : 'Register licence'}</span>
        </button>
      </form>
    </div>
  );
}

export function LicenceCard({ licence, inSlot }: { licence: KnownLicence; inSlot: boolean }) {
  const until = <time dateTime={licence.basicUntil}>{formatDate(licence.basicUntil)}</time>;
  const active = licenceActive(licence);
  // An ended period is a warning only while the map is not kept live by a slot.
  const warn = !active && !inSlot;
  return (
    <div className={`ep-publish-licence${warn ? ' ep-publish-licence--ended' : ''}`} data-testid="publish-licence">
      <p className="ep-publish-licence__title">
        {active ? (
          <>Licence registered: Basic until {until}</>
        ) : inSlot ? (
          <>Licence registered: its {LICENCE_BASIC_MONTHS} months of Basic ended on {until}; its slot keeps it live</>
        ) : (
          <>Licence’s {LICENCE_BASIC_MONTHS} months of Basic ended on {until}: publish it in a slot to keep it live</>
        )}
      </p>
      {licence.verified ? null : <p className="ep-publish-licence__note">{UNVERIFIED_NOTE}</p>}
    </div>
  );
}
