/**
 * Build-time settings (Vite's `VITE_*` variables, see client/README.md), each with a default
 * that works without any .env file.
 */
const env = import.meta.env;

const nonEmpty = (value: string | undefined, fallback: string) => (value && value.trim() !== '' ? value.trim() : fallback);

export const config = {
  docsUrl: nonEmpty(env.VITE_DOCS_URL, 'https://docs.mapfold.com/'),
  routesUrl: nonEmpty(env.VITE_ROUTES_URL, 'https://routes.mapfold.com/'),
  demoMapId: nonEmpty(env.VITE_DEMO_MAP_ID, 'demo'),
  /** Where the per-map software licence is sold (the marketplace's product page): linked before the card and in Publish. */
  marketplaceUrl: nonEmpty(env.VITE_MARKETPLACE_URL, 'https://codecanyon.net/search/mapfold'),
  /** The footer's social links. */
  linkedinUrl: nonEmpty(env.VITE_LINKEDIN_URL, 'https://www.linkedin.com/company/mapfold'),
  xUrl: nonEmpty(env.VITE_X_URL, 'https://x.com/mapfold'),
  youtubeUrl: nonEmpty(env.VITE_YOUTUBE_URL, 'https://www.youtube.com/@mapfold'),
} as const;
