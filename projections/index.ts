import { apiTokensProjection } from './api-tokens.js';
import { billingProjection } from './billing.js';
import { mapCommentsProjection } from './map-comments.js';
import { mapDataProjection } from './map-data.js';
import { mapDataSourcesProjection } from './map-data-sources.js';
import { mapInsightsRetentionProjection } from './map-insights-retention.js';
import { mapMembersProjection } from './map-members.js';
import { mapPublicationProjection } from './map-publication.js';
import { mapsListProjection } from './maps-list.js';
import type { Projection } from './projection.js';
import { webhooksProjection } from './webhooks.js';

/** Every read model the product keeps, in the order they are brought up. */
export const allProjections: readonly Projection[] = [mapsListProjection, mapDataProjection, billingProjection, mapCommentsProjection, mapMembersProjection, mapInsightsRetentionProjection, mapPublicationProjection, apiTokensProjection, webhooksProjection, mapDataSourcesProjection];
