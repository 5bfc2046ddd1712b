/**
 * The route table (spec §2). Paths come from ./paths; every route of the spec is here, and
 * anything else is the 404 page. The layout, the landing page and the 404 page come with the
 * app's first chunk; every other page is a chunk of its own (lazy-page.tsx), and the pages that
 * need accounts, maps or billing also wait for the session's runtime (app/session/).
 */
import { Suspense } from 'react';
import { useRoutes, type RouteObject } from 'react-router-dom';
import { PageSpinner } from '../components/ui/spinner';
import { paths } from '../lib/paths';
import { RequireAdmin, RequireSignedIn, RequireSignedOut } from './guards';
import { MainLayout } from './layout/main-layout';
import { lazyPage, type LazyPage, type RouteHandle } from './lazy-page';
import { usePreloadOnIntent } from './preload-on-intent';
import { LandingPage } from './routes/landing';
import { NotFoundPage } from './routes/not-found';
import './routes/pages.css';

const session = { needsSession: true };

const auth = () => import('./routes/auth');
const account = () => import('./routes/account');
const maps = () => import('./routes/maps');
const caseStudies = () => import('./routes/case-studies');
const redirects = () => import('./routes/redirects');
const legalPage = () => import('../features/marketing/components/legal-page');

/** A legal page: the shared page component and its one document (each document is a chunk of its own). */
function legal<M>(loadDocument: () => Promise<M>, pick: (module: M) => Parameters<typeof import('../features/marketing/components/legal-page').LegalPage>[0]['document']): LazyPage {
  return lazyPage(
    async () => {
      const [{ LegalPage }, documentModule] = await Promise.all([legalPage(), loadDocument()]);
      const document = pick(documentModule);
      return { Page: () => <LegalPage document={document} /> };
    },
    (module) => module.Page,
  );
}

const pages = {
  viewer: lazyPage(() => import('./routes/viewer'), (m) => m.ViewerPage),
  login: lazyPage(auth, (m) => m.LoginPage, session),
  register: lazyPage(auth, (m) => m.RegisterPage, session),
  reset: lazyPage(auth, (m) => m.ResetPage, session),
  verifyEmail: lazyPage(auth, (m) => m.VerifyEmailPage, session),
  ssoCallback: lazyPage(auth, (m) => m.SsoCallbackPage, session),
  maps: lazyPage(maps, (m) => m.MapsPage, session),
  newMap: lazyPage(maps, (m) => m.NewMapPage, session),
  map: lazyPage(maps, (m) => m.MapPage, session),
  account: lazyPage(account, (m) => m.AccountPage, session),
  subscribe: lazyPage(account, (m) => m.SubscribePage, session),
  adminMaps: lazyPage(() => import('./routes/admin'), (m) => m.AdminMapsPage, session),
  invitation: lazyPage(() => import('./routes/invitation'), (m) => m.InvitationRoute, session),
  caseStudyRealEstate: lazyPage(caseStudies, (m) => m.RealEstateCaseStudyPage),
  caseStudyRetail: lazyPage(caseStudies, (m) => m.RetailCaseStudyPage),
  caseStudyGeographic: lazyPage(caseStudies, (m) => m.GeographicCaseStudyPage),
  wayfinding: lazyPage(() => import('./routes/wayfinding'), (m) => m.WayfindingPage),
  pricing: lazyPage(() => import('./routes/pricing'), (m) => m.PricingPage),
  estimate: lazyPage(() => import('./routes/estimate'), (m) => m.EstimatePage),
  contact: lazyPage(() => import('./routes/contact'), (m) => m.ContactPage),
  agreement: legal(() => import('../features/marketing/components/legal-agreement'), (m) => m.SERVICE_AGREEMENT),
  privacy: legal(() => import('../features/marketing/components/legal-privacy'), (m) => m.PRIVACY_POLICY),
  terms: legal(() => import('../features/marketing/components/legal-terms'), (m) => m.TERMS_AND_CONDITIONS),
  docs: lazyPage(redirects, (m) => m.DocsRedirect),
  routes: lazyPage(redirects, (m) => m.RoutesRedirect),
  demo: lazyPage(redirects, (m) => m.DemoRedirect),
};

/** A route of a lazily loaded page, its preload in `handle` (for links pointed at). */
function route(path: string, page: LazyPage): RouteObject {
  const handle: RouteHandle = { preload: page.preload };
  return { path, element: page.element, handle };
}

export const routes: RouteObject[] = [
  // Outside the main layout: embeddable in a customer's site.
  route(paths.viewer.pattern, pages.viewer),
  {
    element: <MainLayout />,
    children: [
      { index: true, element: <LandingPage /> },
      {
        element: <RequireSignedOut />,
        children: [route(paths.login, pages.login), route(paths.register, pages.register), route(paths.reset, pages.reset)],
      },
      {
        element: <RequireSignedIn />,
        children: [
          route(paths.maps, pages.maps),
          route(paths.newMap, pages.newMap),
          route(paths.account, pages.account),
          route(paths.subscribe, pages.subscribe),
        ],
      },
      {
        element: <RequireAdmin />,
        children: [route(paths.adminMaps, pages.adminMaps)],
      },
      route(paths.verifyEmail, pages.verifyEmail),
      route(paths.ssoCallback, pages.ssoCallback),
      // Anyone: signed out, it offers to sign up or log in and comes back here.
      route(paths.invitation.pattern, pages.invitation),
      route(paths.map.pattern, pages.map),
      route(paths.caseStudyRealEstate, pages.caseStudyRealEstate),
      route(paths.caseStudyRetail, pages.caseStudyRetail),
      route(paths.caseStudyGeographic, pages.caseStudyGeographic),
      route(paths.wayfinding, pages.wayfinding),
      route(paths.pricing, pages.pricing),
      route(paths.estimate, pages.estimate),
      route(paths.contact, pages.contact),
      route(paths.agreement, pages.agreement),
      route(paths.privacy, pages.privacy),
      route(paths.terms, pages.terms),
      route(paths.docs, pages.docs),
      route(paths.routes, pages.routes),
      route(paths.demo, pages.demo),
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * The routes under a declarative router (BrowserRouter in the browser, MemoryRouter in tests):
 * React Router's data router (createBrowserRouter) alone is about 30 KB gzipped more, and the
 * app uses none of its loaders or actions.
 */
export function AppRoutes() {
  usePreloadOnIntent(routes);
  // The main layout has its own boundary under the header; this one covers the viewer (/m/{id}).
  return <Suspense fallback={<PageSpinner label="Loading" />}>{useRoutes(routes)}</Suspense>;
}
