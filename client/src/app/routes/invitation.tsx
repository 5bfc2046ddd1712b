import { useParams } from 'react-router-dom';
import { InvitationPage } from '../../features/sharing/components/invitation-page';

/** /invitations/:token: the link in an invitation e-mail (issue 16). */
export function InvitationRoute() {
  const { token = '' } = useParams();
  // A new link is a new page (its own attempt to accept).
  return <InvitationPage key={token} token={token} />;
}
