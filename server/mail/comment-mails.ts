/**
 * The notice a member gets when a comment mentions them: who, on which map, what they said
 * (the start of it), and a link that opens the map's editor at the thread.
 */
import type { MailMessage } from './mailer.js';

/** How much of the comment the notice quotes. */
const QUOTE_MAX = 300;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

function quoteOf(body: string): string {
  return body.length > QUOTE_MAX ? `${body.slice(0, QUOTE_MAX - 1)}…` : body;
}

/** The editor's address for a map, opened at a thread (the panel selects it). */
export function commentLink(publicUrl: string, mapId: string, threadId: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/maps/${encodeURIComponent(mapId)}?comment=${encodeURIComponent(threadId)}`;
}

export function mentionMail(input: { to: string; recipientName: string; authorName: string; mapTitle: string; body: string; url: string }): MailMessage {
  const { to, recipientName, authorName, mapTitle, url } = input;
  const quote = quoteOf(input.body);
  const greeting = `Hi ${recipientName || 'there'},`;
  const line = `${authorName} mentioned you in a comment on “${mapTitle}”:`;
  const footer = 'You get this because a member of the map mentioned you. Only the map’s owner and members can see its comments.';
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;background:#f8fafc;padding:24px">
<div style="max-width:520px;margin:0 auto;background:#fff;border-radius:12px;padding:32px;border:1px solid #e2e8f0">
<p style="font-weight:700;font-size:18px;margin:0 0 24px">Mapfold</p>
<p style="margin:0 0 16px">${escapeHtml(greeting)}</p>
<p style="margin:0 0 16px">${escapeHtml(line)}</p>
<blockquote style="margin:0 0 16px;padding:12px 16px;border-left:3px solid #4f46e5;background:#f1f5f9;white-space:pre-wrap">${escapeHtml(quote)}</blockquote>
<p style="margin:24px 0"><a href="${escapeHtml(url)}" style="background:#4f46e5;color:#fff;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">Open the comment</a></p>
<p style="margin:0;color:#64748b;font-size:13px">${escapeHtml(footer)}</p>
</div></body></html>`;
  return {
    to,
    subject: `${authorName} mentioned you on “${mapTitle}”`.replace(/[\r\n]+/g, ' ').slice(0, 200),
    text: `${greeting}\n\n${line}\n\n${quote}\n\nOpen the comment: ${url}\n\n${footer}\n`,
    html,
  };
}
