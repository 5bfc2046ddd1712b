/**
 * How this server registers purchase codes (`GET /api/client-config`'s `licences.mode`):
 * checked with the marketplace, accepted as a local test, or not at all. The Publish panel says
 * which before a code is typed. Asked once per page load; null while unknown or when the server
 * cannot say (the panel then says nothing about it, and the server's answer still decides).
 */
import { useEffect, useState } from 'react';
import { ClientConfig } from '../../../events/client-config';
import type { LicenceMode } from '../../../events/billing-plans';
import { api as defaultApi, type ApiClient } from './api';

let cached: Promise<LicenceMode | null> | null = null;

export function fetchLicenceMode(api: ApiClient = defaultApi): Promise<LicenceMode | null> {
  cached ??= api
    .get('/api/client-config', ClientConfig)
    .then(({ result }) => result.licences?.mode ?? null)
    .catch(() => {
      cached = null; // Ask again next time: the failure may have been the network.
      return null;
    });
  return cached;
}

export function useLicenceMode(api: ApiClient = defaultApi): LicenceMode | null {
  const [mode, setMode] = useState<LicenceMode | null>(null);
  useEffect(() => {
    let current = true;
    void fetchLicenceMode(api).then((answer) => {
      if (current) setMode(answer);
    });
    return () => {
      current = false;
    };
  }, [api]);
  return mode;
}

/** Forgets the answer (tests). */
export function resetLicenceModeCache(): void {
  cached = null;
}
