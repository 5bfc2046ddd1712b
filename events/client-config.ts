/**
 * What the client learns from the server at run time (`GET /api/client-config`): settings that
 * come from the server's environment, which a client built once cannot know at build time.
 */
import { z } from 'zod';
import { LICENCE_MODES } from './billing-plans.js';

/** PostHog's project key and ingestion address; null when analytics stay local. */
export const PosthogSettings = z.object({
  key: z.string().min(1),
  host: z.url(),
});
export type PosthogSettings = z.infer<typeof PosthogSettings>;

export const ClientConfig = z.object({
  analytics: z.object({
    posthog: PosthogSettings.nullable(),
  }),
  /**
   * How purchase codes are registered here (events/billing-plans.ts): the Publish panel says
   * before the code is typed whether it will be checked, accepted as a local test, or refused.
   * Optional so that a client newer than its server still reads the analytics part.
   */
  licences: z.object({ mode: z.enum(LICENCE_MODES) }).optional(),
});
export type ClientConfig = z.infer<typeof ClientConfig>;

/** What the client assumes when the server cannot be asked: nothing leaves the browser. */
export const LOCAL_ONLY_CLIENT_CONFIG: ClientConfig = { analytics: { posthog: null } };
