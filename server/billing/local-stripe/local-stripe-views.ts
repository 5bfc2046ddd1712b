/**
 * The HTML of the local test Stripe's pages. Server-rendered and self-contained (no script
 * needed), every value escaped; a banner on every page says no payment is taken. The one
 * stylesheet and the one script are constants, allowed by their hashes in the pages'
 * Content-Security-Policy (server/security/security-headers.ts): no inline style attribute,
 * and nothing that varies per page inside them.
 */
import type { LocalPrice } from './local-stripe-api.js';
import type { LocalObject } from './local-stripe-store.js';

const escapeHtml = (value: unknown) =>
  String(value ?? '').replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

const money = (cents: number) => `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const date = (seconds: number) => new Date(seconds * 1000).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** The pages' stylesheet. */
export const LOCAL_STRIPE_STYLE = `
*{box-sizing:border-box}body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5fb;color:#1f2340;line-height:1.5}
.test{background:repeating-linear-gradient(135deg,#fff4d6,#fff4d6 12px,#ffeeb8 12px,#ffeeb8 24px);border-bottom:1px solid #f1c75b;color:#6b4a00;text-align:center;padding:.6rem 1rem;font-size:.9rem}
.test strong{letter-spacing:.04em}
main{max-width:34rem;margin:2.5rem auto;padding:0 1rem}
.card{background:#fff;border:1px solid #e2e5f3;border-radius:14px;padding:1.6rem;box-shadow:0 12px 30px -18px rgba(30,27,75,.35)}
h1{font-size:1.45rem;margin:0 0 .25rem;letter-spacing:-.02em}
.muted{color:#5d6385;margin:0 0 1.2rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.45rem 1rem;margin:0 0 1.2rem}dt{color:#5d6385}dd{margin:0;text-align:right;font-weight:600}
label{display:block;font-weight:600;margin:.2rem 0 .35rem}
input[type=number]{width:100%;font:inherit;padding:.6rem .75rem;border:1px solid #c9cde3;border-radius:10px}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #8c95ff;outline-offset:2px}
.hint{font-size:.85rem;color:#5d6385;margin:.3rem 0 1rem}
.note{font-size:.88rem;color:#3b4066;background:#f4f5fb;border-radius:10px;padding:.6rem .8rem;margin:1rem 0 0}
.actions{display:flex;gap:.6rem;flex-wrap:wrap;margin-top:1rem}
button,.button{font:inherit;font-weight:650;border-radius:10px;padding:.65rem 1.1rem;border:1px solid transparent;cursor:pointer;text-decoration:none;display:inline-flex;align-items:center}
.primary{background:#4451f2;color:#fff}.primary:hover{background:#3340d8}
.secondary{background:#fff;color:#1f2340;border-color:#c9cde3}.secondary:hover{background:#f4f5fb}
.danger{background:#fff;color:#b42318;border-color:#f3b8b2}
.sub{border-top:1px solid #e2e5f3;padding-top:1.1rem;margin-top:1.1rem}.sub:first-of-type{border-top:0;margin-top:0;padding-top:0}
.badge{display:inline-block;font-size:.75rem;font-weight:700;border-radius:999px;padding:.1rem .55rem;margin-left:.4rem;vertical-align:middle}
.ok{background:#dcfce7;color:#166534}.warn{background:#fef3c7;color:#92400e}.off{background:#eceef6;color:#4b5170}
form.inline{display:flex;gap:.5rem;align-items:flex-end}form.inline input{max-width:8rem}
.notice{background:#eef0ff;border:1px solid #c9cffd;border-radius:10px;padding:.6rem .8rem;margin-bottom:1rem}
h2.plan{font-size:1.1rem;margin:0 0 .3rem}.actions.end{margin-top:1.4rem}
`;

/**
 * The checkout page's script: the total follows the number of maps as it is typed (the server
 * checks the number again on submit). The price per map comes from the page.
 */
export const CHECKOUT_SCRIPT = `
(function () {
  var input = document.getElementById('quantity'), total = document.getElementById('total'), maps = document.getElementById('maps');
  if (!input || !total || !maps) return;
  var unitAmount = Number(total.getAttribute('data-unit-amount'));
  input.addEventListener('input', function () {
    var n = Number(input.value);
    if (!Number.isInteger(n) || n < 1 || n > 1000) return;
    maps.textContent = String(n);
    total.textContent = '$' + ((unitAmount * n) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  });
})();
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · Test mode</title><style>${LOCAL_STRIPE_STYLE}</style></head>
<body><div class="test" role="note"><strong>TEST MODE</strong> · This is Mapfold's local test checkout. No card is needed and no real payment is taken.</div>
<main>${body}</main></body></html>`;
}

export function renderMessagePage(title: string, message: string, backUrl: string | null): string {
  return page(
    title,
    `<div class="card"><h1>${escapeHtml(title)}</h1><p class="muted">${escapeHtml(message)}</p>${
      backUrl ? `<a class="button secondary" href="${escapeHtml(backUrl)}">Back</a>` : ''
    }</div>`,
  );
}

export function renderCheckoutPage(input: { session: LocalObject; price: LocalPrice; quantity: number; adjustable: boolean; planName: string }): string {
  const { session, price, quantity, adjustable, planName } = input;
  const per = price.interval === 'yearly' ? 'year' : 'month';
  // Stripe's custom_text.submit.message, shown where Stripe shows it: just above the pay button.
  const submitMessage = (session.custom_text as { submit?: { message?: string } | null } | undefined)?.submit?.message ?? null;
  const quantityField = adjustable
    ? `<label for="quantity">Number of maps</label>
       <input id="quantity" name="quantity" type="number" inputmode="numeric" min="1" max="1000" step="1" value="${quantity}" required aria-describedby="quantity-hint">
       <p class="hint" id="quantity-hint">From 1 to 1000 maps, ${money(price.unitAmount)} per map per ${per}.</p>`
    : `<input type="hidden" name="quantity" value="${quantity}">`;
  return page(
    `Subscribe to ${planName}`,
    `<div class="card">
  <h1>Subscribe to Mapfold ${escapeHtml(planName)}</h1>
  <p class="muted">${escapeHtml(session.customer_email ?? 'Your Mapfold account')} · billed ${price.interval === 'yearly' ? 'yearly' : 'monthly'}</p>
  <dl>
    <dt>Plan</dt><dd>${escapeHtml(planName)}, ${price.interval === 'yearly' ? 'annual' : 'monthly'}</dd>
    <dt>Price</dt><dd>${money(price.unitAmount)} per map per ${per}</dd>
    <dt>Maps</dt><dd id="maps">${quantity}</dd>
    <dt>Total today</dt><dd><output id="total" for="quantity" aria-live="polite" data-unit-amount="${price.unitAmount}">${money(price.unitAmount * quantity)}</output></dd>
  </dl>
  <form method="post" action="/local-stripe/checkout/${escapeHtml(session.id)}/complete">
    ${quantityField}
    ${submitMessage ? `<p class="note">${escapeHtml(submitMessage)}</p>` : ''}
    <div class="actions"><button class="primary" type="submit">Complete test payment</button></div>
  </form>
  <form method="post" action="/local-stripe/checkout/${escapeHtml(session.id)}/cancel"><div class="actions"><button class="secondary" type="submit">Cancel and go back</button></div></form>
</div>
${
  adjustable
    ? `<script>${CHECKOUT_SCRIPT}</script>`
    : ''
}`,
  );
}

export function renderBillingPage(input: {
  portal: LocalObject;
  rows: { subscription: LocalObject; item: { quantity: number; current_period_end: number }; planName: string; price: LocalPrice | null }[];
}): string {
  const base = `/local-stripe/billing/${escapeHtml(input.portal.id)}`;
  const subscriptions = input.rows.length
    ? input.rows
        .map(({ subscription, item, planName, price }) => {
          const ended = subscription.status === 'canceled';
          const cancelAt = typeof subscription.cancel_at === 'number' ? subscription.cancel_at : null;
          const badge = ended ? '<span class="badge off">Ended</span>' : cancelAt ? `<span class="badge warn">Cancels ${date(cancelAt)}</span>` : '<span class="badge ok">Active</span>';
          const action = (name: string, label: string, kind: string) =>
            `<form method="post" action="${base}/subscriptions/${escapeHtml(subscription.id)}"><input type="hidden" name="action" value="${name}"><button class="${kind}" type="submit">${label}</button></form>`;
          return `<section class="sub" aria-label="${escapeHtml(planName)} subscription">
  <h2 class="plan">${escapeHtml(planName)} ${badge}</h2>
  <p class="muted">${item.quantity} ${item.quantity === 1 ? 'map' : 'maps'}${price ? ` · ${money(price.unitAmount * item.quantity)} per ${price.interval === 'yearly' ? 'year' : 'month'}` : ''}${
    ended ? '' : ` · renews ${date(item.current_period_end)}`
  }</p>
  ${
    ended
      ? ''
      : `<form class="inline" method="post" action="${base}/subscriptions/${escapeHtml(subscription.id)}">
    <input type="hidden" name="action" value="quantity">
    <div><label for="q-${escapeHtml(subscription.id)}">Number of maps</label><input id="q-${escapeHtml(subscription.id)}" name="quantity" type="number" min="1" max="1000" step="1" value="${item.quantity}" required></div>
    <button class="secondary" type="submit">Update</button>
  </form>
  <div class="actions">${cancelAt ? action('resume', 'Keep subscription', 'secondary') : action('cancel', 'Cancel subscription', 'danger')}${action('end', 'End now', 'danger')}</div>`
  }
</section>`;
        })
        .join('\n')
    : '<p class="muted">No subscriptions yet.</p>';
  return page(
    'Billing',
    `<div class="card">
  <h1>Billing</h1>
  <p class="muted">Change the number of maps, or cancel. Cancelling keeps your maps published until the end of the paid period.</p>
  ${subscriptions}
  <div class="actions end">${input.portal.return_url ? `<a class="button primary" href="${escapeHtml(input.portal.return_url)}">Return to Mapfold</a>` : ''}</div>
</div>`,
  );
}
