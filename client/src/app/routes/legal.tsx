/** The legal pages (spec §2): service agreement, privacy policy, terms. */
import { SERVICE_AGREEMENT } from '../../features/marketing/components/legal-agreement';
import { LegalPage } from '../../features/marketing/components/legal-page';
import { PRIVACY_POLICY } from '../../features/marketing/components/legal-privacy';
import { TERMS_AND_CONDITIONS } from '../../features/marketing/components/legal-terms';

export const AgreementPage = () => <LegalPage document={SERVICE_AGREEMENT} />;

export const PrivacyPage = () => <LegalPage document={PRIVACY_POLICY} />;

export const TermsPage = () => <LegalPage document={TERMS_AND_CONDITIONS} />;
