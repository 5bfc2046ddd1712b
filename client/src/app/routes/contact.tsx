/** /contact (spec §2). */
import { Link, useSearchParams } from 'react-router-dom';
import { SimplePage } from '../../features/marketing/components/simple-page';
import { paths } from '../paths';

export function ContactPage() {
  // The footer's "Custom Work" opens this page on that topic.
  const [params] = useSearchParams();
  const custom = params.get('topic') === 'custom';
  return (
    <SimplePage
      eyebrow={custom ? 'Contact · Custom work' : 'Contact'}
      title="Contact us"
      lead={
        custom
          ? 'Want us to build your map? Tell us about your space, and we will come back with a plan and a fixed price.'
          : 'Questions about plans, licences or a custom map? We answer every message within one business day.'
      }
    >
      <p>
        Email us at <a href={custom ? 'mailto:hello@mapfold.com?subject=Custom%20work' : 'mailto:hello@mapfold.com'}>hello@mapfold.com</a>. For
        help with an existing map, include its link so we can look at it straight away. For custom work, see the{' '}
        <Link to={paths.estimate}>estimate page</Link>.
      </p>
    </SimplePage>
  );
}

