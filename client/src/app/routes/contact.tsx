/** /contact (spec §2): the contact form, with other ways to reach the team beside it. */
import { useSearchParams } from 'react-router-dom';
import { CONTACT_TOPICS, type ContactTopic } from '../../../../events/contact';
import { ContactAside } from '../../features/contact/components/contact-aside';
import { ContactForm } from '../../features/contact/components/contact-form';
import { PageDescription } from '../../features/marketing/components/page-description';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session';
import '../../features/contact/contact.css';

/** The public inbox shown to visitors (mail from the form goes to the server's CONTACT_EMAIL). */
const TEAM_EMAIL = 'hello@mapfold.com';

function topicFrom(param: string | null): ContactTopic {
  return CONTACT_TOPICS.find((topic) => topic === param) ?? 'general';
}

export function ContactPage() {
  // The footer's "Custom Work" opens this page on that topic; other pages may name theirs.
  const [params] = useSearchParams();
  const topic = topicFrom(params.get('topic'));
  const custom = topic === 'custom';
  const { user } = useSession();
  return (
    <div className="page contact-page">
      <title>Contact us · Mapfold</title>
      <PageDescription content="Contact the Mapfold team about plans, licences, support or a custom map built for you. We answer every message within one business day." />
      <div className="container">
        <div className="contact-page__head">
          <span className="eyebrow">{custom ? 'Contact · Custom work' : 'Contact'}</span>
          <h1>Contact us</h1>
          <p className="lead">
            {custom
              ? 'Want us to build your map? Tell us about your space, and we will come back with a plan and a fixed price.'
              : 'Questions about plans, licences or a custom map? We answer every message within one business day.'}
          </p>
        </div>
        <div className="contact-page__grid">
          <section className="card contact-page__card">
            <ContactForm
              initialTopic={topic}
              initialName={user?.displayName ?? ''}
              initialEmail={user?.email ?? ''}
              teamEmail={TEAM_EMAIL}
            />
          </section>
          <ContactAside teamEmail={TEAM_EMAIL} custom={custom} estimatePath={paths.estimate} />
        </div>
      </div>
    </div>
  );
}
