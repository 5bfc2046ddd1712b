/** The account e-mails: verification and password reset, in plain text and simple HTML. */
import type { MailMessage } from './mailer.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function layout(greeting: string, paragraphs: string[], action: { label: string; url: string }, footer: string): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join('');
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;background:#f8fafc;padding:24px">
<div style="max-width:520px;margin:0 auto;background:#fff;border-radius:12px;padding:32px;border:1px solid #e2e8f0">
<p style="font-weight:700;font-size:18px;margin:0 0 24px">Mapfold</p>
<p style="margin:0 0 16px">${escapeHtml(greeting)}</p>${body}
<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>
<p style="margin:0;color:#64748b;font-size:13px">${escapeHtml(footer)}</p>
</div></body></html>`;
}

export function verificationMail(to: string, displayName: string, url: string): MailMessage {
  const greeting = `Hi ${displayName},`;
  const lines = ['Please confirm your email address to start building maps with Mapfold.'];
  const footer = 'If you did not create a Mapfold account, you can ignore this email. The link works for 48 hours.';
  return {
    to,
    subject: 'Verify your email address for Mapfold',
    text: `${greeting}\n\n${lines.join('\n\n')}\n\nVerify your email address: ${url}\n\n${footer}\n`,
    html: layout(greeting, lines, { label: 'Verify email address', url }, footer),
  };
}

export function passwordResetMail(to: string, displayName: string, url: string): MailMessage {
  const greeting = `Hi ${displayName},`;
  const lines = ['Someone asked to reset the password of your Mapfold account. If it was you, choose a new password here.'];
  const footer = 'If you did not ask for this, ignore this email: your password stays as it is. The link works once, for 1 hour.';
  return {
    to,
    subject: 'Reset your Mapfold password',
    text: `${greeting}\n\n${lines.join('\n\n')}\n\nReset your password: ${url}\n\n${footer}\n`,
    html: layout(greeting, lines, { label: 'Choose a new password', url }, footer),
  };
}
