import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { LICENCE_BASIC_MONTHS } from '../../../../../events/billing-plans';
import { SectionHeading } from '../../../components/ui/section-heading';
import { paths } from '../../../lib/paths';
import { FREE_TEST_MAPS, SALES_CONTACT_PATH } from './pricing-links';
import './pricing.css';

const QUESTIONS: { question: string; answer: ReactNode }[] = [
  {
    question: 'What is a slot?',
    answer:
      'A slot is room for one published map. A subscription to 5 Basic maps gives you 5 Basic slots; you choose which registered maps use them, and you can move a slot from one map to another at any time.',
  },
  {
    question: 'Why does each map need a licence as well?',
    answer: `The licence is your right to use the Mapfold software for that map, sold through a marketplace; the subscription pays for hosting it. Registering a licence gives the map ${LICENCE_BASIC_MONTHS} months of Basic, so you only start paying for a slot after that. Slots only work with registered maps.`,
  },
  {
    question: 'Can I have both plans?',
    answer:
      'Yes. Basic and Professional are separate subscriptions, each with its own number of slots, so you can keep simple maps on Basic and put the maps that need routes on Professional.',
  },
  {
    question: 'How do I cancel?',
    answer:
      'From your account, at any time, in a couple of clicks. The subscription stays active until the end of the period you have paid for and is not renewed after that; your maps stay published until then.',
  },
  {
    question: 'Can I get a refund?',
    answer:
      'No refunds are given after a subscription or a licence is activated. That is why every account gets free test maps: try everything first, and subscribe when you are sure.',
  },
  {
    question: 'Do you offer discounts?',
    answer: (
      <>
        Annual billing costs less per map than monthly billing, and volume discounts apply from 10, 50 and 100 maps.{' '}
        <Link to={SALES_CONTACT_PATH}>Contact sales</Link> for a quote for your number of maps.
      </>
    ),
  },
  {
    question: 'What can I do before I subscribe?',
    answer: `Everything except publish: build up to ${FREE_TEST_MAPS} test maps, invite your team, import your locations and preview the result on any device.`,
  },
  {
    question: 'Can you build the map for us?',
    answer: (
      <>
        Yes. Our team draws maps from your plans, sets up wayfinding and hands the map over ready to publish.{' '}
        <Link to={`${paths.contact}?topic=custom`}>Tell us about your project</Link> and we will reply with a plan and a fixed price.
      </>
    ),
  },
];

/** Questions people ask before subscribing; details and summary keep them keyboard and screen-reader friendly. */
export function PricingFaq() {
  return (
    <section className="pricing-faq" aria-labelledby="faq-title">
      <SectionHeading
        id="faq-title"
        eyebrow="FAQ"
        title="Questions about pricing"
        lead={
          <>
            Something else on your mind? <Link to={paths.contact}>Ask us</Link>; a person answers within one business day.
          </>
        }
      />
      <div className="pricing-faq__list">
        {QUESTIONS.map(({ question, answer }) => (
          <details key={question} className="pricing-faq__item">
            <summary>
              <h3>{question}</h3>
            </summary>
            <p>{answer}</p>
          </details>
        ))}
      </div>
    </section>
  );
}
