/** The mail the team gets for each contact-form message; replying answers the visitor. */
import { CONTACT_TOPIC_LABELS, type ContactMessageReceived } from '../../events/contact.js';
import type { MailMessage } from './mailer.js';

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Keeps a header line a header line: no line breaks from the visitor's name reach the subject. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\t]+/g, ' ').trim();
}

export function contactMail(to: string, message: ContactMessageReceived, receivedAt: Date): MailMessage {
  const topic = CONTACT_TOPIC_LABELS[message.topic];
  const account = message.uid ? `signed in as account ${message.uid}` : 'not signed in';
  const facts: [string, string][] = [
    ['From', `${message.name} <${message.email}>`],
    ['Topic', topic],
    ['Account', account],
    ['Received', receivedAt.toISOString()],
    ['Reference', message.messageId],
  ];
  const text = `${facts.map(([label, value]) => `${label}: ${value}`).join('\n')}\n\n${message.message}\n\nReply to this e-mail to answer ${message.name} directly.\n`;
  const rows = facts
    .map(([label, value]) => `<tr><td style="padding:4px 16px 4px 0;color:#64748b;vertical-align:top">${escapeHtml(label)}</td><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`)
    .join('');
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;background:#f8fafc;padding:24px">
<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:12px;padding:32px;border:1px solid #e2e8f0">
<p style="font-weight:700;font-size:18px;margin:0 0 8px">Mapfold · Contact form</p>
<p style="margin:0 0 20px;color:#64748b">${escapeHtml(topic)}</p>
<table style="border-collapse:collapse;font-size:14px;margin:0 0 20px">${rows}</table>
<div style="white-space:pre-wrap;border-left:3px solid #4f46e5;padding:4px 0 4px 16px;margin:0 0 24px">${escapeHtml(message.message)}</div>
<p style="margin:0;color:#64748b;font-size:13px">Reply to this e-mail to answer ${escapeHtml(message.name)} directly.</p>
</div></body></html>`;
  return {
    to,
    subject: `[Contact · ${topic}] ${oneLine(message.name).slice(0, 100)}`,
    text,
    html,
    // The bare address: a display name typed by a stranger has no place in a header.
    replyTo: message.email,
  };
}
