/**
 * `GET /api/client-config` (events/client-config.ts): whether PostHog is configured. Asked
 * once per page load, and only after the visitor accepted analytics: a visitor who did not
 * is never the reason for a request about analytics.
 */
import { ClientConfig, LOCAL_ONLY_CLIENT_CONFIG } from '../../../../../events/client-config';
import { api as defaultApi, type ApiClient } from '../../../lib/api';

let cached: Promise<ClientConfig> | null = null;

/** The client's run-time settings; local-only analytics when the server cannot say. */
export function getClientConfig(api: ApiClient = defaultApi): Promise<ClientConfig> {
  cached ??= api
    .get('/api/client-config', ClientConfig)
    .then(({ result }) => result)
    .catch(() => {
      cached = null; // Ask again next time: the failure may have been the network.
      return LOCAL_ONLY_CLIENT_CONFIG;
    });
  return cached;
}

/** Forgets the answer (tests). */
export function resetClientConfigCache(): void {
  cached = null;
}
