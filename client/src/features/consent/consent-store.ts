/**
 * The visitor's analytics choice, kept in localStorage with a version: when what we ask
 * consent for changes (a new analytics service, a new purpose), CONSENT_VERSION goes up and
 * every visitor is asked again. Also holds whether the banner was reopened from the footer's
 * "Cookie settings". A tiny external store, read by React through useSyncExternalStore. The
 * banner is on every page, the landing page's first chunk too, so the stored value is checked
 * by hand rather than with zod (kept out of that chunk).
 */

/** localStorage key of the stored choice. */
export const CONSENT_STORAGE_KEY = 'mapfold.consent';
/** Raise when the banner asks for something new: older choices no longer count. */
export const CONSENT_VERSION = 1;

export type ConsentChoice = 'accepted' | 'declined';

/** What is stored: the version asked about, the choice, and when the visitor chose (ISO 8601: proof of consent). */
interface StoredConsent {
  version: number;
  choice: ConsentChoice;
  decidedAt: string;
}

function isStoredConsent(value: unknown): value is StoredConsent {
  if (typeof value !== 'object' || value === null) return false;
  const { version, choice, decidedAt } = value as Record<string, unknown>;
  return Number.isInteger(version) && (choice === 'accepted' || choice === 'declined') && typeof decidedAt === 'string';
}

export interface ConsentSnapshot {
  /** The visitor's choice under the current version; null while they have not chosen. */
  choice: ConsentChoice | null;
  /** The banner was reopened to change an earlier choice. */
  settingsOpen: boolean;
}

function storage(): Storage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    // Blocked storage (privacy settings, sandboxed frames): the choice lasts for this page only.
    return null;
  }
}

function readChoice(): ConsentChoice | null {
  try {
    const raw = storage()?.getItem(CONSENT_STORAGE_KEY);
    if (!raw) return null;
    const stored: unknown = JSON.parse(raw);
    return isStoredConsent(stored) && stored.version === CONSENT_VERSION ? stored.choice : null;
  } catch {
    return null;
  }
}

const listeners = new Set<() => void>();
let snapshot: ConsentSnapshot = { choice: readChoice(), settingsOpen: false };

function publish(next: ConsentSnapshot): void {
  snapshot = next;
  for (const listener of listeners) listener();
}

export const consentStore = {
  getSnapshot(): ConsentSnapshot {
    return snapshot;
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  /** Records the visitor's choice (and closes the banner). */
  choose(choice: ConsentChoice, now: Date = new Date()): void {
    try {
      storage()?.setItem(CONSENT_STORAGE_KEY, JSON.stringify({ version: CONSENT_VERSION, choice, decidedAt: now.toISOString() } satisfies StoredConsent));
    } catch {
      // Full or blocked storage: the choice holds in memory for this page.
    }
    publish({ choice, settingsOpen: false });
  },
  /** Shows the banner again so an earlier choice can be changed ("Cookie settings"). */
  openSettings(): void {
    publish({ ...snapshot, settingsOpen: true });
  },
  /** Re-reads storage: another tab chose, or a test reset it. */
  reload(): void {
    publish({ choice: readChoice(), settingsOpen: false });
  },
};

// A choice made in another tab applies here too.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === CONSENT_STORAGE_KEY || event.key === null) consentStore.reload();
  });
}
