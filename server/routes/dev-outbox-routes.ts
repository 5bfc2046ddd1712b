/**
 * `/dev/outbox`: the embedded outbox as a page, so a person running the product on one
 * machine can open their verification and reset links. It exists only while no SMTP server
 * is configured, and answers only requests from this machine: it holds other people's links.
 * Behind a reverse proxy (TRUST_PROXY set) it answers nobody: a proxy on the same host makes
 * every visitor's request come from this machine.
 *
 * Its headers (a CSP allowing only its stylesheet, no Referer) are in server/security/.
 */
import type { FastifyInstance } from 'fastify';
import type { OutboxMailer } from '../mail/outbox-mailer.js';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

export const OUTBOX_PATH = '/dev/outbox';

/** The page's only style, allowed by its hash in the page's Content-Security-Policy. */
export const OUTBOX_STYLE = `body{font-family:system-ui,sans-serif;margin:0;background:#f8fafc;color:#0f172a}main{max-width:760px;margin:0 auto;padding:32px 16px}
h1{font-size:24px;margin:0 0 4px}p.lead{color:#475569;margin:0 0 24px}article{background:#fff;border:1px solid #e2e8f0;border-radius:12px;padding:16px 20px;margin:0 0 12px}
header{display:flex;flex-wrap:wrap;justify-content:space-between;gap:8px;margin-bottom:8px}header span{color:#64748b;font-size:14px}
pre{white-space:pre-wrap;word-break:break-word;font:14px/1.5 ui-monospace,monospace;margin:0}a{color:#4338ca}`;

export interface DevOutboxOptions {
  /** TRUST_PROXY is set: requests may reach this process through a proxy on this machine. */
  behindProxy: boolean;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Plain-text mail with its links made clickable. */
function linkify(text: string): string {
  return escapeHtml(text).replace(/https?:\/\/[^\s<]+/g, (url) => `<a href="${url}">${url}</a>`);
}

export async function devOutboxRoutes(app: FastifyInstance, outbox: OutboxMailer, { behindProxy }: DevOutboxOptions): Promise<void> {
  // A page for the person running the product, not the API: left out of the OpenAPI document.
  app.get(OUTBOX_PATH, { schema: { hide: true } }, async (request, reply) => {
    // The socket's own address: a forwarded-for header could be forged from anywhere.
    const remote = request.raw.socket.remoteAddress ?? '';
    if (behindProxy || !LOOPBACK.has(remote)) {
      return reply.status(404).type('text/plain').send('Not found');
    }
    const messages = await outbox.list(50);
    const items = messages
      .map(
        (m) => `<article><header><strong>${escapeHtml(m.subject)}</strong><span>to ${escapeHtml(m.to)} · ${m.sentAt.toISOString().replace('T', ' ').slice(0, 19)} UTC</span></header>
<pre>${linkify(m.text)}</pre></article>`,
      )
      .join('\n');
    reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Outbox · Mapfold</title><meta name="robots" content="noindex">
<style>${OUTBOX_STYLE}</style></head>
<body><main><h1>Outbox</h1><p class="lead">No SMTP server is configured (set <code>SMTP_URL</code> to send real mail), so Mapfold keeps its e-mails here. Only this machine can see this page. Newest first.</p>
${items || '<p>No e-mails yet.</p>'}</main></body></html>`;
  });
}
