import { Link } from 'react-router-dom';
import { AvatarLink } from '../../components/avatar';
import { ButtonLink } from '../../components/ui/button';
import { ChangePasswordForm, DeleteAccount, DisplayNameForm, SignOutEverywhere } from '../../features/auth/components/account-forms';
import { ApiTokensSection } from '../../features/api-tokens/api-tokens-section';
import { WebhooksSection } from '../../components/webhooks/webhooks-section';
import { PlanPicker } from '../../features/billing/plan-picker';
import { paths, SUBSCRIBE_HASH } from '../../lib/paths';
import { useSession } from '../../lib/session';
import { useNavigateAndWait } from '../use-navigate-and-wait';

/** /account: profile, password, sessions, subscription, API tokens, and deleting the account. */
export function AccountPage() {
  const { user, mode, admin } = useSession();
  const navigateAndWait = useNavigateAndWait();
  if (!user) return null;
  // Leave the signed-in-only page first, so it does not bounce to /login on the way out.
  const goHome = () => navigateAndWait(paths.home, { replace: true });
  return (
    <div className="page">
      <title>Account · Mapfold</title>
      <div className="container narrow">
        <div className="page-header">
          <h1>Account</h1>
          <p>Your profile, sign-in and subscription.</p>
        </div>

        <section className="card account-card" aria-labelledby="account-profile">
          <div className="account-card__head">
            <AvatarLink to={paths.account} displayName={user.displayName} admin={admin} />
            <div>
              <h2 id="account-profile" className="account-card__title">
                Profile
              </h2>
              <p className="muted">How you appear in Mapfold.</p>
            </div>
          </div>
          <dl className="details">
            <div>
              <dt>Email</dt>
              <dd>
                {user.email}{' '}
                {user.emailVerified ? <span className="badge badge--ok">Verified</span> : <span className="badge badge--warn">Not verified</span>}
              </dd>
            </div>
            <div>
              <dt>Role</dt>
              <dd>{admin ? 'Administrator' : 'Member'}</dd>
            </div>
          </dl>
          <DisplayNameForm />
        </section>

        {mode === 'local' ? (
          <section className="card account-card" aria-labelledby="account-password">
            <div>
              <h2 id="account-password" className="account-card__title">
                Password
              </h2>
              <p className="muted">Changing it signs out your other devices; this one stays signed in.</p>
            </div>
            <ChangePasswordForm />
          </section>
        ) : null}

        <section className="card account-card account-card--row" aria-labelledby="account-sessions">
          <div>
            <h2 id="account-sessions" className="account-card__title">
              Sessions
            </h2>
            <p className="muted">Lost a device, or signed in on a shared computer? Sign out of Mapfold on every device at once.</p>
          </div>
          <SignOutEverywhere onSignedOut={goHome} />
        </section>

        <section className="card account-card account-card--row" aria-labelledby="account-subscription">
          <div>
            <h2 id="account-subscription" className="account-card__title">
              Subscription
            </h2>
            <p className="muted">
              Subscribe to publish maps and get hosting slots. See the <Link to={paths.pricing}>plans and prices</Link>.
            </p>
          </div>
          <ButtonLink to={{ hash: SUBSCRIBE_HASH }}>Manage subscription</ButtonLink>
        </section>

        <ApiTokensSection verified={user.emailVerified} />

        <section className="card account-card" id="webhooks" aria-labelledby="account-webhooks">
          <div>
            <h2 id="account-webhooks" className="account-card__title">
              Webhooks
            </h2>
            <p className="muted">
              Tell another system when any of your maps is published, changes or gets a comment: Mapfold POSTs each event to your address, signed with the webhook’s secret. A
              single map’s webhooks are in its editor, under Settings.
            </p>
          </div>
          <WebhooksSection headingId="account-webhooks" verified={user.emailVerified} />
        </section>

        <section className="card account-card account-card--row account-card--danger" aria-labelledby="account-delete">
          <div>
            <h2 id="account-delete" className="account-card__title">
              Delete account
            </h2>
            <p className="muted">Deletes your account and every map in it. This cannot be undone.</p>
          </div>
          <DeleteAccount onDeleted={goHome} />
        </section>
      </div>
    </div>
  );
}

/** /subscribe: the plan picker as a page (the #subscribe fragment shows the same in the modal). */
export function SubscribePage() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="page">
      <title>Subscribe · Mapfold</title>
      <div className="container">
        <div className="page-header subscribe-page__header">
          <h1>Pick your plan</h1>
          <p>Start or manage subscription</p>
        </div>
        <PlanPicker uid={user.uid} />
      </div>
    </div>
  );
}
