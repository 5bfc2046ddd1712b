import { ButtonLink } from '../../components/ui/button';
import { paths } from '../../lib/paths';
import '../../features/marketing/components/marketing.css';

/** Every path the router does not know (spec §2). */
export function NotFoundPage() {
  return (
    <div className="container not-found">
      <title>Not Found · Mapfold</title>
      <p className="not-found__code">404</p>
      <h1>Not Found</h1>
      <p>The page you're looking for could not be found.</p>
      <ButtonLink to={paths.home} size="lg">
        Back to home
      </ButtonLink>
    </div>
  );
}
