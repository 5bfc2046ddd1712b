/**
 * What a server holds before anyone asks for it: jsdom (the sanitisers' DOM) loads with the
 * first text or drawing to sanitise, KurrentDB's client only when EVENTSTORE_URL is set, and
 * Clerk's SDK only with Clerk's keys, the list of common passwords with the first password.
 * Checked in a fresh process, since this test runner has loaded them all long before.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

const SCRIPT = `
import { createRequire } from 'node:module';
const loaded = (name) => Object.keys(createRequire(import.meta.url).cache).some((file) => file.includes('/node_modules/' + name + '/'));
// Everything server/main.ts imports, without starting it.
for (const module of ['./projections/index.js', './projections/runner.js', './server/app.js', './server/config.js', './server/seed/seed-demo-map.js', './server/seed/example-maps.js', './server/services.js']) await import(module);
const before = { jsdom: loaded('jsdom'), kurrentdb: loaded('@kurrent/kurrentdb-client'), clerk: loaded('@clerk/fastify'), passwords: loaded('@zxcvbn-ts/language-common') };
const { sanitizeRichText } = await import('./server/content/rich-text-sanitizer.js');
const { sanitizeSvg } = await import('./server/files/sanitize-svg.js');
const text = sanitizeRichText('<b onclick="steal()">open</b>');
const svg = sanitizeSvg('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><rect width="1" height="1" onclick="steal()"/></svg>').svg;
const { isCommonPassword } = await import('./server/auth/password-policy.js');
const common = [isCommonPassword('Password1'), isCommonPassword('a tram to the harbour')];
console.log(JSON.stringify({ before, text, svg, common, after: { jsdom: loaded('jsdom'), passwords: loaded('@zxcvbn-ts/language-common') } }));
`;

describe('modules a server loads on first use', () => {
  it('given the modules of server/main.ts imported, then neither jsdom, the KurrentDB client, the Clerk SDK nor the common passwords are loaded, and jsdom and the passwords load on first use', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { cwd: ROOT });
    const result = JSON.parse(stdout.trim().split('\n').pop()!) as { before: Record<string, boolean>; text: string; svg: string; common: boolean[]; after: Record<string, boolean> };
    expect(result.before).toEqual({ jsdom: false, kurrentdb: false, clerk: false, passwords: false });
    expect(result.text).toBe('<b>open</b>');
    expect(result.svg).not.toContain('onclick');
    expect(result.svg).toContain('<rect');
    expect(result.common).toEqual([true, false]);
    expect(result.after).toEqual({ jsdom: true, passwords: true });
  }, 60_000);
});
