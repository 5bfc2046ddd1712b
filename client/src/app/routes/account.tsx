import { Link } from 'react-router-dom';
import { AvatarLink } from '../../components/avatar';
import { ButtonLink } from '../../components/ui/button';
import { useSession } from '../../lib/session';
import { paths } from '../paths';

/** /account: who is signed in. Settings arrive with the auth provider issue. */
export function AccountPage() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="page">
      <title>Account · Mapfold</title>
      <div className="container narrow">
        <div className="page-header">
          <h1>Account</h1>
          <p>Your profile and subscription.</p>
        </div>
        <section className="card account-card" aria-label="Profile">
          <AvatarLink to={paths.account} displayName={user.displayName} admin={user.admin} />
          <dl className="details">
            <div>
              <dt>Name</dt>
              <dd>{user.displayName}</dd>
            </div>
            <div>
              <dt>Email</dt>
              <dd>
                {user.email} {user.emailVerified ? <span className="badge">Verified</span> : <span className="badge">Not verified</span>}
              </dd>
            </div>
            <div>
              <dt>Role</dt>
              <dd>{user.admin ? 'Administrator' : 'Member'}</dd>
            </div>
          </dl>
        </section>
        <section className="card account-card" aria-label="Subscription">
          <div>
            <h2 className="account-card__title">Subscription</h2>
            <p className="muted">Subscribe to publish maps and get hosting slots. See the <Link to={paths.pricing}>plans and prices</Link>.</p>
          </div>
          <ButtonLink to={paths.subscribe}>Manage subscription</ButtonLink>
        </section>
      </div>
    </div>
  );
}

/** /subscribe: choosing a plan (the plan picker and checkout come with the billing issue). */
export function SubscribePage() {
  return (
    <div className="page">
      <title>Subscribe · Mapfold</title>
      <div className="container narrow">
        <div className="page-header">
          <h1>Pick your plan</h1>
          <p>Start or manage subscription</p>
        </div>
        <div className="card account-card">
          <p className="muted">
            Online checkout opens here soon. Until then, compare the plans on the pricing page and write to us to start a subscription.
          </p>
          <div className="simple-actions">
            <ButtonLink to={paths.pricing}>See plans</ButtonLink>
            <ButtonLink to={paths.contact} variant="secondary">
              Contact us
            </ButtonLink>
          </div>
        </div>
      </div>
    </div>
  );
}
