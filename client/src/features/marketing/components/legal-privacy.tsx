import { Link } from 'react-router-dom';
import { paths } from '../../../lib/paths';
import { LEGAL } from './legal-entity';
import type { LegalDocument } from './legal-page';

/** Why we process personal data, which data, and the legal basis for it (GDPR art. 6). */
const PURPOSES: { purpose: string; data: string; basis: string }[] = [
  { purpose: 'Create and run your account, host and show your maps', data: 'Account data, maps and content', basis: 'Performance of our contract with you' },
  { purpose: 'Take payments, manage subscriptions, keep accounting records', data: 'Payment data, account data', basis: 'Contract; legal obligation' },
  { purpose: 'Keep the Service secure, prevent fraud and abuse', data: 'Account data, usage data', basis: 'Our legitimate interest in a safe service' },
  { purpose: 'Understand and improve how the Service is used', data: 'Usage and analytics data', basis: 'Your consent' },
  { purpose: 'Answer your messages and send service emails', data: 'Correspondence, account data', basis: 'Contract; our legitimate interest in answering you' },
  { purpose: 'Send product news, if you ask for it', data: 'Email address', basis: 'Your consent, which you can withdraw in any email' },
];

const privacyMail = <a href={`mailto:${LEGAL.privacyEmail}`}>{LEGAL.privacyEmail}</a>;

/** The Privacy Policy (/privacy): what personal data Mapfold processes, why, with whom, and the rights people have. */
export const PRIVACY_POLICY: LegalDocument = {
  title: 'Privacy Policy',
  description:
    'How Mapfold collects and uses personal data: account, map, usage and payment information, the processors we use, how long we keep data, cookies and consent, and your rights.',
  effective: LEGAL.effective,
  summary: (
    <p>
      This policy explains what personal data Mapfold collects when you visit our website, create an account or publish maps, why we use it,
      who we share it with and the choices you have. We collect only what we need to run the service, and we never sell personal data.
    </p>
  ),
  sections: [
    {
      id: 'controller',
      title: 'Who we are',
      body: (
        <>
          <p>
            {LEGAL.company} is the controller of the personal data described in this policy, except for personal data inside maps that our
            customers publish (see section 4), which we process on their behalf as a processor.
          </p>
          <p>You can reach us about privacy at any time at {privacyMail}.</p>
        </>
      ),
    },
    {
      id: 'definitions',
      title: 'Definitions',
      body: (
        <dl>
          <dt>“Personal data”</dt>
          <dd>Any information relating to an identified or identifiable person, such as a name, an email address or an online identifier.</dd>
          <dt>“Processing”</dt>
          <dd>Anything done with personal data, such as collecting, storing, using, sharing or deleting it.</dd>
          <dt>“Controller” and “processor”</dt>
          <dd>
            The controller decides why and how personal data is processed; a processor processes it on the controller’s behalf and on its
            instructions.
          </dd>
          <dt>“Service”</dt>
          <dd>The Mapfold website, map builder, hosting and viewer.</dd>
        </dl>
      ),
    },
    {
      id: 'data-we-collect',
      title: 'Data we collect',
      body: (
        <>
          <h3>Account data</h3>
          <p>Your name, email address, password (stored only as a secure hash by our authentication provider) and whether your email is verified.</p>
          <h3>Maps and content</h3>
          <p>The maps you create, their edit history, and who in your account made each change and when.</p>
          <h3>Usage and analytics data</h3>
          <p>
            Pages visited, features used, device and browser type, approximate location derived from the IP address, and error reports. We
            collect analytics beyond what is strictly necessary only if you consent (see section 10).
          </p>
          <h3>Payment data</h3>
          <p>
            Payments are handled by our card payment provider. We receive your billing name, billing address, tax number if you give one, the
            card brand and last four digits, and your subscription status. We never see or store full card numbers.
          </p>
          <h3>Correspondence</h3>
          <p>Messages you send us by email or through the contact form, and the emails we send you, such as verification and password-reset mail.</p>
        </>
      ),
    },
    {
      id: 'customer-maps',
      title: 'Personal data in customers’ maps',
      body: (
        <p>
          Customers may put personal data in their maps, such as staff names in an office directory. For that data the customer is the
          controller and we act as its processor under our <Link to={paths.agreement}>Service Agreement</Link>. Requests about such data should go
          to the organisation that published the map; we will help it answer them.
        </p>
      ),
    },
    {
      id: 'purposes',
      title: 'Purposes and legal bases',
      body: (
        <div className="legal-doc__table">
          <table>
            <caption className="visually-hidden">Why we process personal data, and on what legal basis</caption>
            <thead>
              <tr>
                <th scope="col">Purpose</th>
                <th scope="col">Data</th>
                <th scope="col">Legal basis</th>
              </tr>
            </thead>
            <tbody>
              {PURPOSES.map((row) => (
                <tr key={row.purpose}>
                  <td data-label="Purpose">{row.purpose}</td>
                  <td data-label="Data">{row.data}</td>
                  <td data-label="Legal basis">{row.basis}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ),
    },
    {
      id: 'processors',
      title: 'Processors and sharing',
      body: (
        <>
          <p>We share personal data only with service providers that process it on our instructions, under written data processing terms:</p>
          <ul>
            <li>
              <strong>Hosted authentication provider</strong>: sign-in, sign-up, password reset and sign-in with Google.
            </li>
            <li>
              <strong>Card payment provider</strong>: payments, subscriptions, invoices and the billing portal.
            </li>
            <li>
              <strong>Analytics providers</strong>: a behaviour-analytics service and an event-analytics service, used only with your consent.
            </li>
            <li>
              <strong>Cloud hosting and email delivery providers</strong>: running the Service and delivering our emails.
            </li>
          </ul>
          <p>
            We may also disclose personal data where the law requires it, to protect the rights and safety of our users and the public, or to a
            buyer of our business, which would remain bound by this policy. We do not sell personal data or share it for advertising.
          </p>
        </>
      ),
    },
    {
      id: 'retention',
      title: 'How long we keep data',
      body: (
        <ul>
          <li>Account data and maps: while your account is open, and for 30 days after it is closed so it can be restored on request.</li>
          <li>Billing records: for the period tax and accounting law requires, currently up to 7 years.</li>
          <li>Analytics data: up to 25 months, then deleted or fully anonymised.</li>
          <li>Security logs: up to 12 months.</li>
          <li>Correspondence: up to 3 years after our last exchange.</li>
        </ul>
      ),
    },
    {
      id: 'transfers',
      title: 'International transfers',
      body: (
        <p>
          Some of our providers process data outside the European Economic Area and the United Kingdom, including in the United States. Where
          they do, we rely on an adequacy decision, such as the EU–US Data Privacy Framework for certified providers, or on the European
          Commission’s standard contractual clauses with additional safeguards. You can ask us for a copy of the relevant safeguards at{' '}
          {privacyMail}.
        </p>
      ),
    },
    {
      id: 'rights',
      title: 'Your rights',
      body: (
        <>
          <p>Depending on where you live, you have the right to:</p>
          <ul>
            <li>access the personal data we hold about you and receive a copy of it;</li>
            <li>have inaccurate data corrected, and incomplete data completed;</li>
            <li>have your data deleted, or its processing restricted;</li>
            <li>receive the data you gave us in a portable format;</li>
            <li>object to processing based on our legitimate interests;</li>
            <li>withdraw consent at any time, without affecting processing that took place before.</li>
          </ul>
          <p>
            Write to {privacyMail}; we answer within one month. You can also complain to your local data protection authority; in Ireland that is
            the Data Protection Commission.
          </p>
        </>
      ),
    },
    {
      id: 'cookies',
      title: 'Cookies and consent',
      body: (
        <>
          <p>We use a small number of cookies and similar storage:</p>
          <ul>
            <li>
              <strong>Strictly necessary</strong>: keeping you signed in, protecting forms against forgery and remembering your consent choice.
              These need no consent.
            </li>
            <li>
              <strong>Analytics</strong>: measuring page views and how features are used, set only after you accept them.
            </li>
          </ul>
          <p>
            You can change your choice at any time with the Cookie settings link at the foot of every page, or by clearing the cookies and site
            data for {LEGAL.website} in your browser. Maps embedded on other websites set no analytics cookies.
          </p>
        </>
      ),
    },
    {
      id: 'children',
      title: 'Children',
      body: (
        <p>
          The Service is made for businesses and is not directed at children under 16. We do not knowingly collect personal data from children.
          If you believe a child has given us personal data, contact {privacyMail} and we will delete it.
        </p>
      ),
    },
    {
      id: 'security',
      title: 'Security',
      body: (
        <p>
          We protect personal data with encryption in transit and at rest, access limited to staff who need it, and regular reviews of our
          providers. No system is perfectly secure; if a breach affects your personal data, we will tell you and the authorities as the law
          requires.
        </p>
      ),
    },
    {
      id: 'changes',
      title: 'Changes to this policy',
      body: (
        <p>
          We update this policy when our practices or the law change. The effective date at the top shows the current version; for material
          changes we also email account holders before they take effect.
        </p>
      ),
    },
    {
      id: 'contact',
      title: 'Contact',
      body: (
        <address>
          {LEGAL.company} · Privacy
          <br />
          Email: {privacyMail}
          <br />
          General questions: <a href={`mailto:${LEGAL.generalEmail}`}>{LEGAL.generalEmail}</a>
        </address>
      ),
    },
  ],
};
