import { Link } from 'react-router-dom';
import { FREE_TEST_SLOTS } from '../../../../../events/map-states';
import { paths } from '../../../lib/paths';
import { LEGAL } from './legal-entity';
import type { LegalDocument } from './legal-page';

/** The Terms & Conditions (/terms): the rules for using the website and the map builder. */
export const TERMS_AND_CONDITIONS: LegalDocument = {
  title: 'Terms & Conditions',
  description:
    'The terms for using the Mapfold website and map builder: accounts, acceptable use, intellectual property, third-party links, disclaimers, liability and governing law.',
  effective: LEGAL.effective,
  summary: (
    <p>
      These terms apply to everyone who visits {LEGAL.website} or uses the Mapfold map builder, with or without an account. Paid subscriptions
      are also governed by our <Link to={paths.agreement}>Service Agreement</Link>. Please read them; by using the website you accept them.
    </p>
  ),
  sections: [
    {
      id: 'definitions',
      title: 'Definitions',
      body: (
        <dl>
          <dt>“Mapfold”, “we”, “us”</dt>
          <dd>The company that operates {LEGAL.website} and the Mapfold service.</dd>
          <dt>“You”</dt>
          <dd>Any person using the website or the builder, and the organisation on whose behalf they act.</dd>
          <dt>“Website”</dt>
          <dd>{LEGAL.website} and its pages, including the pricing, case-study, contact and legal pages.</dd>
          <dt>“Builder”</dt>
          <dd>The Mapfold editor in which maps are created and edited, and the viewer in which they are shown.</dd>
        </dl>
      ),
    },
    {
      id: 'use',
      title: 'Using the website and the builder',
      body: (
        <>
          <p>
            You may use the website to learn about Mapfold and the builder to create maps for yourself or your organisation. Every account can
            build up to {FREE_TEST_SLOTS} test maps free of charge; publishing maps requires a licence and a subscription as described on our{' '}
            <Link to={paths.pricing}>pricing page</Link>.
          </p>
          <p>
            We continually improve the website and the builder and may change, add or remove features. We will tell account holders in advance of
            changes that remove something they rely on.
          </p>
        </>
      ),
    },
    {
      id: 'accounts',
      title: 'Accounts',
      body: (
        <ul>
          <li>You must be at least 16 years old and able to enter a binding contract to create an account.</li>
          <li>Give accurate information when you register and verify your email address; the builder is available only to verified accounts.</li>
          <li>Keep your password secret. You are responsible for what happens under your account until you tell us it has been misused.</li>
          <li>If you create an account for an organisation, you confirm that you are authorised to accept these terms on its behalf.</li>
          <li>You may close your account at any time by writing to {LEGAL.generalEmail}.</li>
        </ul>
      ),
    },
    {
      id: 'acceptable-use',
      title: 'Acceptable use',
      body: (
        <>
          <p>When you use the website or the builder, you must not:</p>
          <ul>
            <li>break the law, or infringe anyone’s intellectual property, privacy or other rights;</li>
            <li>upload content that is unlawful, hateful, harassing, sexually explicit or misleading;</li>
            <li>attempt to gain unauthorised access to the Service, other accounts, or our systems;</li>
            <li>interfere with the Service, for example by sending malware or excessive automated requests;</li>
            <li>copy, scrape or reverse-engineer the builder, except where the law expressly allows it;</li>
            <li>use the Service to build a competing product.</li>
          </ul>
          <p>We may remove content or suspend accounts that break these rules, and report unlawful activity to the authorities.</p>
        </>
      ),
    },
    {
      id: 'intellectual-property',
      title: 'Intellectual property',
      body: (
        <>
          <p>
            The website, the builder, the Mapfold name and logo, and all software, designs and text we provide belong to {LEGAL.company} or its
            licensors and are protected by copyright, trademark and other laws. These terms give you no rights in them beyond using the Service
            as intended.
          </p>
          <p>
            Your maps and the content you upload remain yours. You give us the permissions needed to host and display them, as described in the{' '}
            <Link to={paths.agreement}>Service Agreement</Link>. If you send us feedback or ideas, we may use them without obligation to you.
          </p>
        </>
      ),
    },
    {
      id: 'third-party',
      title: 'Third-party links and services',
      body: (
        <p>
          The website links to sites we do not control, such as marketplaces where licences are sold, our documentation site and social networks,
          and the builder relies on third-party services for sign-in and payments. Their own terms and privacy policies apply to them, and we are
          not responsible for their content or practices.
        </p>
      ),
    },
    {
      id: 'disclaimers',
      title: 'Disclaimers',
      body: (
        <>
          <p>
            We work hard to keep the website accurate and the builder available, but we provide them “as is” and “as available”. To the extent the
            law allows, we give no warranty that they will be uninterrupted, error-free or fit for a particular purpose.
          </p>
          <p>
            Maps made with Mapfold are only as accurate as the information put into them. Do not rely on a map as the only source of information
            in an emergency; follow the signs and instructions at the site.
          </p>
        </>
      ),
    },
    {
      id: 'liability',
      title: 'Limitation of liability',
      body: (
        <>
          <p>
            To the extent the law allows, we are not liable for indirect or consequential loss, or for loss of profit, revenue, data or goodwill,
            arising from your use of the website or the builder. For free use, our total liability is limited to 100 US dollars; for paid use,
            the limits in the Service Agreement apply.
          </p>
          <p>Nothing in these terms limits liability that cannot be limited by law, nor your statutory rights as a consumer.</p>
        </>
      ),
    },
    {
      id: 'termination',
      title: 'Suspension and termination',
      body: (
        <p>
          We may suspend or close an account that seriously or repeatedly breaks these terms. Where possible we warn you first and give you the
          chance to export your maps. Sections 5, 7, 8 and 10 survive the end of your use of the Service.
        </p>
      ),
    },
    {
      id: 'governing-law',
      title: 'Governing law',
      body: (
        <p>
          These terms are governed by the laws of {LEGAL.governingLaw}, and {LEGAL.courts} have jurisdiction over any dispute about them. If you
          are a consumer, you also keep the protection of the mandatory laws of the country where you live and may bring proceedings there.
        </p>
      ),
    },
    {
      id: 'changes',
      title: 'Changes to these terms',
      body: (
        <p>
          We may update these terms from time to time. The effective date at the top shows the current version. If a change is significant, we
          tell account holders by email at least 30 days before it takes effect. Continuing to use the website after that means you accept the
          new terms.
        </p>
      ),
    },
    {
      id: 'contact',
      title: 'Contact',
      body: (
        <>
          <p>Questions about these terms are welcome:</p>
          <address>
            {LEGAL.company}
            <br />
            Email: <a href={`mailto:${LEGAL.generalEmail}`}>{LEGAL.generalEmail}</a>
            <br />
            Contact form: <Link to={paths.contact}>{LEGAL.website}/contact</Link>
          </address>
        </>
      ),
    },
  ],
};
