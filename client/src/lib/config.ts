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
} as const;
