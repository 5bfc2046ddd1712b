import { Link } from 'react-router-dom';
import { LICENCE_BASIC_MONTHS, MAX_QUANTITY, MIN_QUANTITY } from '../../../../../events/billing-plans';
import { VOLUME_DISCOUNT_THRESHOLDS } from '../../../../../events/billing-estimate';
import { FREE_TEST_SLOTS } from '../../../../../events/map-states';
import { paths } from '../../../lib/paths';
import { LEGAL } from './legal-entity';
import type { LegalDocument } from './legal-page';

/** The Service Agreement (/agreement): what a subscribing business and Mapfold owe each other. */
export const SERVICE_AGREEMENT: LegalDocument = {
  title: 'Service Agreement',
  description:
    'The Mapfold Service Agreement for subscribing businesses: subscriptions and slots, map licences, billing and renewal, cancellation, refunds, service levels, customer content and liability.',
  effective: LEGAL.effective,
  summary: (
    <p>
      This agreement governs paid use of Mapfold: subscriptions, hosting slots and map licences. It applies together with our{' '}
      <Link to={paths.terms}>Terms &amp; Conditions</Link> and our <Link to={paths.privacy}>Privacy Policy</Link>. By subscribing, you accept it on
      behalf of the business you represent.
    </p>
  ),
  sections: [
    {
      id: 'definitions',
      title: 'Definitions',
      body: (
        <dl>
          <dt>“Mapfold”, “we”, “us”</dt>
          <dd>The company that operates the Mapfold service at {LEGAL.website}.</dd>
          <dt>“Customer”, “you”</dt>
          <dd>The business or organisation that creates an account and subscribes, and the people it authorises to use the account.</dd>
          <dt>“Service”</dt>
          <dd>The Mapfold map builder, hosting, viewer, embeds and the related support we provide.</dd>
          <dt>“Map”</dt>
          <dd>An interactive map created in the Service, including its floors, layers, locations and media.</dd>
          <dt>“Licence”</dt>
          <dd>A software licence for one Map, bought through a marketplace and identified by a purchase code.</dd>
          <dt>“Subscription”</dt>
          <dd>A paid plan (Basic or Professional) billed monthly or annually for a chosen number of Slots.</dd>
          <dt>“Slot”</dt>
          <dd>The right to keep one registered Map published under a Subscription.</dd>
          <dt>“Activation”</dt>
          <dd>The moment a Subscription payment succeeds or a Licence is registered to a Map, whichever applies.</dd>
          <dt>“Customer Content”</dt>
          <dd>Everything you or your users upload to or create in the Service, including Maps, images, text and location data.</dd>
        </dl>
      ),
    },
    {
      id: 'subscriptions',
      title: 'Subscriptions and slots',
      body: (
        <>
          <p>
            Each Subscription gives you a number of Slots on one plan, from {MIN_QUANTITY} to {MAX_QUANTITY} per Subscription. One Slot keeps one Map
            published. You may hold a Basic and a Professional Subscription at the same time, and you choose which registered Maps use your Slots.
          </p>
          <p>
            Every account may also keep up to {FREE_TEST_SLOTS} test Maps free of charge. Test Maps are for building and evaluation; they are not
            covered by the service levels in section 8.
          </p>
          <p>You may change the number of Slots at any time. Additional Slots are charged pro rata for the rest of the current billing period.</p>
        </>
      ),
    },
    {
      id: 'licences',
      title: 'Map licences',
      body: (
        <>
          <p>
            <strong>Each Map requires its own Licence</strong>, bought separately through a marketplace. A Licence is registered by entering its
            purchase code on the Map in the Service. One purchase code serves one Map and cannot be moved to another Map once registered.
          </p>
          <p>
            Registering a Licence gives that Map {LICENCE_BASIC_MONTHS} months of Basic use from the date of registration, without a Subscription.
            After that period the Map needs a Slot to stay published.
          </p>
          <p>
            <strong>Slots work only with registered Maps.</strong> A Map without a registered Licence cannot be published in a Slot, and a Map
            whose Licence is revoked by the marketplace is taken out of its Slot; we tell you when this happens and why.
          </p>
          <p>The marketplace’s own terms govern the purchase of a Licence. Questions about a marketplace purchase go to that marketplace first.</p>
        </>
      ),
    },
    {
      id: 'fees',
      title: 'Fees, billing and renewal',
      body: (
        <>
          <p>
            Fees are charged per Slot per month at the prices shown on our <Link to={paths.pricing}>pricing page</Link> when you subscribe. Annual
            billing is charged for twelve months in advance at the annual rate; monthly billing is charged each month in advance.
          </p>
          <p>
            Subscriptions renew automatically at the end of each billing period for a period of the same length, until cancelled. We charge the
            payment method on file through our card payment provider on each renewal date. If a payment fails, we retry it and tell you; if it
            still fails after 14 days, the Subscription may end and its Maps leave their Slots.
          </p>
          <p>
            Prices exclude taxes. Where the law requires, we add VAT or sales tax at checkout. We give at least 30 days’ notice by email of any
            price change, which applies from your next renewal after the notice period.
          </p>
          <p>
            Volume discounts are available from {VOLUME_DISCOUNT_THRESHOLDS.join(', ').replace(/, (?=[^,]*$)/, ' and ')} Slots. Their terms are
            agreed in writing with our sales team and apply from the billing period after they are agreed.
          </p>
        </>
      ),
    },
    {
      id: 'cancellation',
      title: 'Cancellation',
      body: (
        <>
          <p>
            You may cancel a Subscription at any time from your account, through the billing portal. Cancellation takes effect at the end of the
            current billing period: until then the Subscription stays active and your Maps stay published. Your Maps and their history remain in
            your account after cancellation, as test Maps or unpublished Maps.
          </p>
          <p>You may resume a cancelled Subscription before the end of its period without any charge beyond the normal renewal.</p>
        </>
      ),
    },
    {
      id: 'refunds',
      title: 'No refunds after activation',
      body: (
        <>
          <p>
            <strong>Fees are not refunded after Activation</strong>, in whole or in part, including for unused Slots, unused months of an annual
            Subscription, or Maps unpublished before the end of a period. Licence purchases are subject to the marketplace’s refund terms before
            registration and are not refundable by us after registration.
          </p>
          <p>
            This does not limit any right to a refund you have under mandatory consumer law, nor the service credits in section 8. We encourage you
            to evaluate the Service on the free test Maps before subscribing.
          </p>
        </>
      ),
    },
    {
      id: 'customer-obligations',
      title: 'Your obligations',
      body: (
        <ul>
          <li>Keep your account credentials confidential and tell us promptly of any unauthorised use.</li>
          <li>Make sure the people you invite to your account follow this agreement; you are responsible for their actions in the Service.</li>
          <li>Keep your billing details accurate and up to date.</li>
          <li>Hold the rights needed for the floor plans, images and other material you upload.</li>
        </ul>
      ),
    },
    {
      id: 'service-levels',
      title: 'Service levels and support',
      body: (
        <>
          <p>
            We aim for 99.9% monthly availability of published Maps, measured as the share of minutes in a calendar month in which the viewer
            serves Maps, excluding scheduled maintenance announced at least 48 hours ahead and events outside our reasonable control.
          </p>
          <p>
            If availability for a month falls below 99.9%, you may request a service credit of 10% of that month’s fees for the affected
            Subscription, or 25% below 99.0%. Requests must reach {LEGAL.generalEmail} within 30 days of the end of the month. Service credits
            are your sole remedy for unavailability.
          </p>
          <table>
            <caption className="visually-hidden">Support by plan</caption>
            <thead>
              <tr>
                <th scope="col">Plan</th>
                <th scope="col">Support</th>
                <th scope="col">First response</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td data-label="Plan">Basic</td>
                <td data-label="Support">Email</td>
                <td data-label="First response">Within one business day</td>
              </tr>
              <tr>
                <td data-label="Plan">Professional</td>
                <td data-label="Support">Priority email and onboarding call</td>
                <td data-label="First response">The same business day</td>
              </tr>
            </tbody>
          </table>
        </>
      ),
    },
    {
      id: 'customer-content',
      title: 'Customer content',
      body: (
        <>
          <p>
            You keep all rights in your Customer Content. You grant us a worldwide, non-exclusive licence to host, copy, process and display it
            only as needed to provide the Service to you and to the visitors of your published Maps, including in embeds on sites you choose.
          </p>
          <p>
            You can export your Maps at any time. After an account is closed we keep Customer Content for 30 days so it can be restored on
            request, then delete it, except where the law requires us to keep it longer. Where Customer Content includes personal data, our{' '}
            <Link to={paths.privacy}>Privacy Policy</Link> describes how we process it on your behalf.
          </p>
        </>
      ),
    },
    {
      id: 'acceptable-use',
      title: 'Acceptable use',
      body: (
        <>
          <p>You must not use the Service to:</p>
          <ul>
            <li>publish content that is unlawful, infringing, defamatory, deceptive or harmful to others;</li>
            <li>distribute malware, or probe, scan or test the vulnerability of the Service without our written permission;</li>
            <li>overload the Service, get around usage limits, or access it by automated means other than our published interfaces;</li>
            <li>resell or sublicense the Service except as agreed in writing;</li>
            <li>publish maps that reveal security-sensitive details of a site, such as the layout of secure areas, without authority to do so.</li>
          </ul>
          <p>
            We may remove content or suspend a Map that breaches this section. Where we can, we warn you first and give you a reasonable time to
            put things right.
          </p>
        </>
      ),
    },
    {
      id: 'liability',
      title: 'Warranties and liability',
      body: (
        <>
          <p>
            We provide the Service with reasonable skill and care. Apart from that and the commitments in this agreement, the Service is provided
            “as is”, and we give no other warranty, express or implied, to the extent the law allows.
          </p>
          <p>
            Neither party is liable for indirect or consequential loss, or for loss of profit, revenue, data or goodwill. Each party’s total
            liability under this agreement in any twelve months is limited to the fees you paid in those twelve months.
          </p>
          <p>
            Nothing in this agreement limits liability for death or personal injury caused by negligence, for fraud, or for any liability that
            cannot be limited by law.
          </p>
        </>
      ),
    },
    {
      id: 'termination',
      title: 'Term and termination',
      body: (
        <>
          <p>
            This agreement starts when you first subscribe or register a Licence and continues while you have an active Subscription or Licence
            period. Either party may end it by written notice if the other materially breaches it and does not remedy the breach within 30 days of
            being asked to.
          </p>
          <p>
            We may suspend the Service immediately where needed to prevent harm to the Service, to other customers or to the public, or where the
            law requires. On termination, your right to use the Service ends, and sections 9, 11 and 13 continue to apply.
          </p>
        </>
      ),
    },
    {
      id: 'governing-law',
      title: 'Governing law',
      body: (
        <p>
          This agreement is governed by the laws of {LEGAL.governingLaw}, and {LEGAL.courts} have exclusive jurisdiction over any dispute arising
          from it, except that either party may seek urgent relief in any competent court. Before going to court, both parties will try in good
          faith for 30 days to settle the dispute by discussion.
        </p>
      ),
    },
    {
      id: 'changes',
      title: 'Changes to this agreement',
      body: (
        <p>
          We may update this agreement as the Service changes. We will email you at least 30 days before a material change takes effect, and the
          change applies from your next renewal after that. If you do not accept it, you may cancel before then. The effective date at the top of
          this page shows when the current version took effect.
        </p>
      ),
    },
    {
      id: 'contact',
      title: 'Contact',
      body: (
        <>
          <p>Notices and questions about this agreement go to:</p>
          <address>
            {LEGAL.company}
            <br />
            Email: <a href={`mailto:${LEGAL.generalEmail}`}>{LEGAL.generalEmail}</a>
            <br />
            Contact form: <Link to={`${paths.contact}?topic=billing`}>Licences &amp; billing</Link>
          </address>
        </>
      ),
    },
  ],
};
