/**
 * Maps the server took out of their slots when a subscription was canceled or its quantity
 * dropped (spec §4), and why. Each can be dismissed; the dismissal is remembered in this browser
 * by the notice's map and time, so a later notice about the same map still shows.
 */
import { useState } from 'react';
import type { UnpublishNotice } from '../../../../../events/billing-api';

export const DISMISSED_NOTICES_KEY = 'mapfold:dismissed-unpublish-notices';
/** Enough for years of notices; the oldest are forgotten first. */
const REMEMBERED = 200;

const keyOf = (notice: UnpublishNotice) => `${notice.mapId}@${notice.at}`;

/** The server's reason is a sentence of its own; after the colon it reads on in lower case ("Your …" → "your …"). */
const sentenceTail = (reason: string) => reason.charAt(0).toLowerCase() + reason.slice(1);

function readDismissed(): string[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(DISMISSED_NOTICES_KEY) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((entry): entry is string => typeof entry === 'string') : [];
  } catch {
    // Storage blocked or a broken value: nothing is dismissed.
    return [];
  }
}

function writeDismissed(keys: readonly string[]) {
  try {
    localStorage.setItem(DISMISSED_NOTICES_KEY, JSON.stringify(keys.slice(-REMEMBERED)));
  } catch {
    // Storage blocked: the dismissal lasts until the page is left.
  }
}

export function UnpublishNotices({ notices }: { notices: readonly UnpublishNotice[] }) {
  const [dismissed, setDismissed] = useState<readonly string[]>(readDismissed);
  const shown = notices.filter((notice) => !dismissed.includes(keyOf(notice)));
  if (shown.length === 0) return null;

  const dismiss = (notice: UnpublishNotice) => {
    const next = [...dismissed, keyOf(notice)];
    setDismissed(next);
    writeDismissed(next);
  };

  return (
    <ul className="unpublish-notices" aria-label="Maps taken out of their slots">
      {shown.map((notice) => (
        <li key={keyOf(notice)} className="unpublish-notice" role="alert">
          <svg className="unpublish-notice__icon" width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
            <path d="M12 9v4M12 17h.01M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" />
          </svg>
          <p className="unpublish-notice__text">
            “{notice.title}” left its slot: {sentenceTail(notice.reason)}
          </p>
          <button type="button" className="unpublish-notice__dismiss" aria-label={`Dismiss the notice about “${notice.title}”`} onClick={() => dismiss(notice)}>
            <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
              <path d="M6 6l12 12M18 6L6 18" />
            </svg>
          </button>
        </li>
      ))}
    </ul>
  );
}
