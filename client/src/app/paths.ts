/**
 * Every route of the app (spec §2), in one table: links and redirects use these, never a
 * path written by hand.
 */
export const paths = {
  home: '/',
  login: '/login',
  reset: '/reset',
  register: '/register',
  maps: '/maps',
  newMap: '/maps/new',
  map: { pattern: '/maps/:id', to: (id: string) => `/maps/${encodeURIComponent(id)}` },
  account: '/account',
  subscribe: '/subscribe',
  caseStudyRealEstate: '/case-study/real-estate',
  caseStudyRetail: '/case-study/retail',
  caseStudyGeographic: '/case-study/geographic',
  wayfinding: '/wayfinding',
  pricing: '/pricing',
  estimate: '/estimate',
  contact: '/contact',
  agreement: '/agreement',
  privacy: '/privacy',
  terms: '/terms',
  docs: '/docs',
  routes: '/routes',
  demo: '/demo',
  viewer: { pattern: '/m/:id', to: (id: string) => `/m/${encodeURIComponent(id)}` },
} as const;

/** Pages where the header shows no navigation (spec §2 Layout). */
export const pathsWithoutNav: readonly string[] = [paths.login, paths.register, paths.reset];
