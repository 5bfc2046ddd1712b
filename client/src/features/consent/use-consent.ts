import { useSyncExternalStore } from 'react';
import { consentStore, type ConsentChoice, type ConsentSnapshot } from './consent-store';

export interface UseConsent extends ConsentSnapshot {
  accept(): void;
  decline(): void;
  openSettings(): void;
}

const accept = () => consentStore.choose('accepted');
const decline = () => consentStore.choose('declined');
const openSettings = () => consentStore.openSettings();

/** The visitor's analytics choice and the actions that change it. */
export function useConsent(): UseConsent {
  const snapshot = useSyncExternalStore(consentStore.subscribe, consentStore.getSnapshot, consentStore.getSnapshot);
  return { ...snapshot, accept, decline, openSettings };
}

export type { ConsentChoice };
