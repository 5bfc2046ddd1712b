/**
 * What a server holds before anyone asks for it: jsdom (the sanitisers' DOM) loads with the
 * first text or drawing to sanitise, KurrentDB's client only when EVENTSTORE_URL is set, and
 * Clerk's SDK only with Clerk's keys, the list of common passwords with the first password,
 * Stripe's SDK with the first call to Stripe (a checkout, a webhook to check), parse5 and
 * xmldom with the first markup or XML to read (server/content/lazy-libraries.ts).
 * Checked in a fresh process, since this test runner has loaded them all long before.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * Told every module URL the process resolves, CommonJS's require cache does not list ES modules
 * (Stripe's SDK is one): a resolve hook on Node's hooks thread posts each to the script.
 */
const RESOLVE_HOOK = `
let port;
export async function initialize(data) {
  port = data.port;
  port.on('message', (message) => { if (message === 'ping') port.postMessage('pong'); });
}
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  port.postMessage(result.url);
  return result;
}`;

const SCRIPT = `
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';
const resolved = new Set();
const { port1, port2 } = new MessageChannel();
let pong = null;
port1.on('message', (message) => { if (message === 'pong') pong?.(); else resolved.add(message); });
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(RESOLVE_HOOK)}), { data: { port: port2 }, transferList: [port2] });
// A round trip through the hook's port: every URL it posted before the pong has arrived.
const settled = () => new Promise((done) => { pong = done; port1.postMessage('ping'); });
const inNodeModules = (name) => (file) => file.includes('/node_modules/' + name + '/');
const loaded = (name) => Object.keys(createRequire(import.meta.url).cache).some(inNodeModules(name)) || [...resolved].some(inNodeModules(name));
// Everything server/main.ts imports, without starting it.
for (const module of ['./projections/index.js', './projections/runner.js', './server/app.js', './server/config.js', './server/seed/seed-demo-map.js', './server/seed/example-maps.js', './server/services.js']) await import(module);
await settled();
const before = { jsdom: loaded('jsdom'), kurrentdb: loaded('@kurrent/kurrentdb-client'), clerk: loaded('@clerk/fastify'), passwords: loaded('@zxcvbn-ts/language-common'), stripe: loaded('stripe'), parse5: loaded('parse5'), xmldom: loaded('@xmldom/xmldom') };
const { sanitizeRichText } = await import('./server/content/rich-text-sanitizer.js');
const { sanitizeSvg } = await import('./server/files/sanitize-svg.js');
const text = sanitizeRichText('<b onclick="steal()">open</b>');
const svg = sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="1" height="1" onclick="steal()"/></svg>').svg;
const { isCommonPassword } = await import('./server/auth/password-policy.js');
const common = [isCommonPassword('Password1'), isCommonPassword('a tram to the harbour')];
const { StripeGateway } = await import('./server/billing/stripe-gateway.js');
const gateway = new StripeGateway({ mode: 'stripe', secretKey: 'sk_test_lazy', webhookSecret: 'whsec_lazy', apiUrl: null, prices: {} }, 'http://localhost', () => null);
const webhook = await gateway.constructEvent('{}', 't=1,v1=00', new Date()).then(() => 'accepted', (error) => error.type);
await settled();
port1.close();
console.log(JSON.stringify({ before, text, svg, common, webhook, after: { jsdom: loaded('jsdom'), passwords: loaded('@zxcvbn-ts/language-common'), stripe: loaded('stripe'), parse5: loaded('parse5') } }));
`;

describe('modules a server loads on first use', () => {
  it('given the modules of server/main.ts imported, then neither jsdom, the KurrentDB client, the Clerk SDK, Stripe’s SDK, parse5, xmldom nor the common passwords are loaded, and jsdom, parse5, Stripe and the passwords load on first use', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { cwd: ROOT });
    const result = JSON.parse(stdout.trim().split('\n').pop()!) as { before: Record<string, boolean>; text: string; svg: string; common: boolean[]; webhook: string; after: Record<string, boolean> };
    expect(result.before).toEqual({ jsdom: false, kurrentdb: false, clerk: false, passwords: false, stripe: false, parse5: false, xmldom: false });
    expect(result.text).toBe('<b>open</b>');
    expect(result.svg).not.toContain('onclick');
    expect(result.svg).toContain('<rect');
    expect(result.common).toEqual([true, false]);
    expect(result.webhook).toBe('StripeSignatureVerificationError');
    expect(result.after).toEqual({ jsdom: true, passwords: true, stripe: true, parse5: true });
  }, 60_000);
});
