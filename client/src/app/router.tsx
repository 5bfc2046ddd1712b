/**
 * The route table (spec §2). Paths come from ./paths; every route of the spec is here, and
 * anything else is the 404 page.
 */
import type { RouteObject } from 'react-router-dom';
import { paths } from '../lib/paths';
import { RequireAdmin, RequireSignedIn, RequireSignedOut } from './guards';
import { MainLayout } from './layout/main-layout';
import { AccountPage, SubscribePage } from './routes/account';
import { AdminMapsPage } from './routes/admin';
import { LoginPage, RegisterPage, ResetPage, SsoCallbackPage, VerifyEmailPage } from './routes/auth';
import { GeographicCaseStudyPage, RealEstateCaseStudyPage, RetailCaseStudyPage } from './routes/case-studies';
import { ContactPage } from './routes/contact';
import { EstimatePage } from './routes/estimate';
import { LandingPage } from './routes/landing';
import { AgreementPage, PrivacyPage, TermsPage } from './routes/legal';
import { MapPage, MapsPage, NewMapPage } from './routes/maps';
import { NotFoundPage } from './routes/not-found';
import { PricingPage } from './routes/pricing';
import { DemoRedirect, DocsRedirect, RoutesRedirect } from './routes/redirects';
import { InvitationRoute } from './routes/invitation';
import { ViewerPage } from './routes/viewer';
import { WayfindingPage } from './routes/wayfinding';
import './routes/pages.css';

export const routes: RouteObject[] = [
  // Outside the main layout: embeddable in a customer's site.
  { path: paths.viewer.pattern, element: <ViewerPage /> },
  {
    element: <MainLayout />,
    children: [
      { index: true, element: <LandingPage /> },
      {
        element: <RequireSignedOut />,
        children: [
          { path: paths.login, element: <LoginPage /> },
          { path: paths.register, element: <RegisterPage /> },
          { path: paths.reset, element: <ResetPage /> },
        ],
      },
      {
        element: <RequireSignedIn />,
        children: [
          { path: paths.maps, element: <MapsPage /> },
          { path: paths.newMap, element: <NewMapPage /> },
          { path: paths.account, element: <AccountPage /> },
          { path: paths.subscribe, element: <SubscribePage /> },
        ],
      },
      {
        element: <RequireAdmin />,
        children: [{ path: paths.adminMaps, element: <AdminMapsPage /> }],
      },
      { path: paths.verifyEmail, element: <VerifyEmailPage /> },
      { path: paths.ssoCallback, element: <SsoCallbackPage /> },
      // Anyone: signed out, it offers to sign up or log in and comes back here.
      { path: paths.invitation.pattern, element: <InvitationRoute /> },
      { path: paths.map.pattern, element: <MapPage /> },
      { path: paths.caseStudyRealEstate, element: <RealEstateCaseStudyPage /> },
      { path: paths.caseStudyRetail, element: <RetailCaseStudyPage /> },
      { path: paths.caseStudyGeographic, element: <GeographicCaseStudyPage /> },
      { path: paths.wayfinding, element: <WayfindingPage /> },
      { path: paths.pricing, element: <PricingPage /> },
      { path: paths.estimate, element: <EstimatePage /> },
      { path: paths.contact, element: <ContactPage /> },
      { path: paths.agreement, element: <AgreementPage /> },
      { path: paths.privacy, element: <PrivacyPage /> },
      { path: paths.terms, element: <TermsPage /> },
      { path: paths.docs, element: <DocsRedirect /> },
      { path: paths.routes, element: <RoutesRedirect /> },
      { path: paths.demo, element: <DemoRedirect /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
