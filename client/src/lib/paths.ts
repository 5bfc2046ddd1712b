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
  /** Admins only (spec §6): every map, queried by author. */
  adminMaps: '/admin/maps',
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
  /** The link in an invitation e-mail (issue 16): accept, or first sign up or log in. */
  invitation: { pattern: '/invitations/:token', to: (token: string) => `/invitations/${encodeURIComponent(token)}` },
  /** The link in the verification e-mail: `/verify-email?token=...`. */
  verifyEmail: '/verify-email',
  /** Where Clerk returns after "Continue with Google" (Clerk mode). */
  ssoCallback: '/sso-callback',
} as const;

/** The fragment that opens the subscribe modal on any page of the main layout (`/maps#subscribe`). */
export const SUBSCRIBE_HASH = '#subscribe';

/** The contact page, opened on the custom work topic (footer: Company, Custom Work). */
export const customWorkPath = `${paths.contact}?topic=custom`;

/**
 * The marketing pages (spec §2 Layout), which show the extended footer; every other page of
 * the main layout shows the minimal one.
 */
export const marketingPaths: readonly string[] = [
  paths.home,
  paths.pricing,
  paths.estimate,
  paths.caseStudyRealEstate,
  paths.caseStudyRetail,
  paths.caseStudyGeographic,
  paths.wayfinding,
  paths.contact,
  paths.terms,
  paths.privacy,
  paths.agreement,
];

/** Pages where the header shows no navigation (spec §2 Layout). */
export const pathsWithoutNav: readonly string[] = [paths.login, paths.register, paths.reset];

/**
 * Pages that fill the window below the header, with no footer: the map editor (a workspace,
 * like a design tool, not a document that scrolls).
 */
export function isWorkspacePath(pathname: string): boolean {
  const match = /^\/maps\/([^/]+)\/?$/.exec(pathname);
  return match !== null && `/maps/${match[1]}` !== paths.newMap;
}
