/** The invitation to a map (issue 16): who invites whom to which map, as what, and the link. */
import type { MemberRole } from '../../events/map-access.js';
import { INVITATION_TTL_DAYS } from '../../events/sharing-api.js';
import type { MailMessage } from './mailer.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export function invitationMail(to: string, invitation: { inviter: string; mapTitle: string; role: MemberRole; url: string }): MailMessage {
  const { inviter, mapTitle, role, url } = invitation;
  const what = role === 'editor' ? 'edit' : 'view';
  const lines = [
    `${inviter} invited you to ${what} the map “${mapTitle}” on Mapfold.`,
    role === 'editor' ? 'As an editor you can change its locations, floors and versions with the others, live.' : 'As a viewer you can follow it live as it changes.',
    'No account yet? Create one from the link, with any address: you land in the map once you are signed in.',
  ];
  const footer = `The link works for ${INVITATION_TTL_DAYS} days, once. If you did not expect this, you can ignore this email.`;
  const body = lines.map((line) => `<p style="margin:0 0 16px">${escapeHtml(line)}</p>`).join('');
  return {
    to,
    subject: `${inviter} invited you to “${mapTitle}” on Mapfold`,
    text: `${lines.join('\n\n')}\n\nOpen the invitation: ${url}\n\n${footer}\n`,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;background:#f8fafc;padding:24px">
<div style="max-width:520px;margin:0 auto;background:#fff;border-radius:12px;padding:32px;border:1px solid #e2e8f0">
<p style="font-weight:700;font-size:18px;margin:0 0 24px">Mapfold</p>${body}
<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">Open the invitation</a></p>
<p style="margin:0;color:#64748b;font-size:13px">${escapeHtml(footer)}</p>
</div></body></html>`,
  };
}
