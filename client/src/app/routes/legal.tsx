/** The legal pages (spec §2): service agreement, privacy policy, terms. */
import { SimplePage } from '../../features/marketing/components/simple-page';

export const AgreementPage = () => (
  <SimplePage eyebrow="Legal" title="Service Agreement" lead="The agreement between Mapfold and the businesses that subscribe to host their maps.">
    <h2>Subscriptions and slots</h2>
    <p>
      A subscription gives a number of hosting slots for the chosen plan. Each published map uses one slot and needs a registered software
      licence bought through a marketplace. Slots work only with registered maps.
    </p>
    <h2>Cancelling</h2>
    <p>You can cancel at any time from your account; your maps stay published until the end of the paid period. No refunds after activation.</p>
  </SimplePage>
);

export const PrivacyPage = () => (
  <SimplePage eyebrow="Legal" title="Privacy Policy" lead="What we collect, why, and the choices you have.">
    <h2>What we collect</h2>
    <p>
      Your account details (name and email), the maps you create, and usage information that helps us keep Mapfold fast and reliable.
      Payments are handled by our card payment provider; we never see or store card numbers.
    </p>
    <h2>Your choices</h2>
    <p>You can export or delete your maps at any time, and ask us to delete your account by writing to privacy@mapfold.com.</p>
  </SimplePage>
);

export const TermsPage = () => (
  <SimplePage eyebrow="Legal" title="Terms & Conditions" lead="The rules for using Mapfold's website and map builder.">
    <h2>Your content</h2>
    <p>Your maps remain yours. You give us the right to host and display them as needed to run the service for you.</p>
    <h2>Fair use</h2>
    <p>Do not use Mapfold to publish unlawful content or to disrupt the service for others. We may suspend accounts that do.</p>
  </SimplePage>
);
