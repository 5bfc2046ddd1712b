/**
 * `GET /docs/api` (issue 30 item 1): the OpenAPI document (server/http/openapi.ts) as a page a
 * person reads: how to authenticate with an API token, the scopes, rate limits and errors,
 * worked examples (each run against a real server by test/server/api-docs.test.ts), then every
 * operation grouped by tag with the scope a token needs, its parameters, its body's fields and
 * a curl command. Plain HTML and one stylesheet (`/docs/api.css`), rendered on the server once
 * per process: no client library, nothing to run.
 */
import type { FastifyInstance } from 'fastify';
import { API_TOKEN_SCOPE_LABELS, API_TOKEN_SCOPES, type ApiTokenScope } from '../../events/api-tokens.js';
import { FUNCTION_SCOPES, ROUTE_SCOPES, ROUTES_WITHOUT_CALLER, scopeOfRoute, type RouteScope } from '../auth/api-token-auth.js';

/** A worked example: the page shows it as curl, the test runs it. */
export interface ApiExample {
  title: string;
  text: string;
  method: 'GET' | 'POST';
  /** With `MAP_ID` where the map's id goes. */
  path: string;
  /** A JSON body (`{data}` for functions). */
  json?: unknown;
  /** A raw body and its type (an import's file). */
  file?: { name: string; type: string; content: string };
  scope: ApiTokenScope;
}

export const API_EXAMPLES: readonly ApiExample[] = [
  { title: 'List your maps', text: 'Your own maps, newest first.', method: 'GET', path: '/api/maps', scope: 'maps:read' },
  { title: 'Create a map', text: 'Answers the new map’s id in `result`.', method: 'POST', path: '/api/fn/createMap', json: { data: { title: 'Store locator' } }, scope: 'maps:write' },
  {
    title: 'Add a location',
    text: 'Edits are applied in order, all or none; the answer carries the map’s new revision.',
    method: 'POST',
    path: '/api/fn/editMap',
    json: {
      data: {
        id: 'MAP_ID',
        edits: [{ type: 'LocationAdded', location: { id: 'main-street', title: 'Main Street store', layer: 'ground', position: { x: 120, y: 80 } } }],
      },
    },
    scope: 'maps:write',
  },
  { title: 'Read a map', text: 'The map’s document (floors, locations, groups, settings) and its revision.', method: 'GET', path: '/api/maps/MAP_ID/data', scope: 'maps:read' },
  {
    title: 'Import a spreadsheet',
    text: 'A CSV, TSV, GeoJSON, KML or Mapplic file as the body; `apply=1` records it (without it, the answer is a preview and nothing changes).',
    method: 'POST',
    path: '/api/maps/MAP_ID/import?filename=stores.csv&apply=1',
    file: { name: 'stores.csv', type: 'text/csv', content: 'Name,Latitude,Longitude\nHarbour store,51.5072,-0.1276\nStation store,48.8566,2.3522\n' },
    scope: 'import',
  },
  { title: 'Export the locations', text: 'As CSV (also `export.geojson`, `export.json` and `export.imdf.zip`).', method: 'GET', path: '/api/maps/MAP_ID/locations.csv', scope: 'maps:read' },
];

const SCOPE_TEXT: Record<ApiTokenScope, string> = {
  'maps:read': 'Lists, reads and exports the maps the token’s owner may see: data, exports, members, comments, history, publication and visit numbers.',
  'maps:write': 'Creates and edits maps, their versions, comments, sharing and publishing as the owner may (owner’s or editor’s rights per map), and uploads drawings.',
  import: 'Imports files into the maps the owner may edit (`POST /api/maps/{id}/import`) and follows an import’s progress.',
  webhooks: 'Reserved for outbound webhooks: accepted on tokens now, used by the webhook functions when they arrive.',
};

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  description?: string;
  minItems?: number;
  format?: string;
  default?: unknown;
  $ref?: string;
}

interface Operation {
  tags?: string[];
  summary?: string;
  description?: string;
  operationId?: string;
  parameters?: Array<{ name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `code` spans from backticks, everything else escaped. */
const prose = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>');

/** A schema's type in a few words (`string`, `"a" | "b"`, `array of object`). */
function typeOf(schema: JsonSchema | undefined, depth = 0): string {
  if (!schema) return 'any';
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    if (depth > 1 || branches.length > 4) return 'one of several shapes';
    return [...new Set(branches.map((branch) => typeOf(branch, depth + 1)))].join(' | ');
  }
  if (schema.type === 'array') return `array of ${typeOf(schema.items, depth + 1)}`;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return schema.type ?? 'any';
}

/** A value the schema accepts, for a curl example: ids are placeholders, enums their first value. */
export function sampleOf(schema: JsonSchema | undefined, name = '', depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.default !== undefined) return schema.default;
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches?.length) return sampleOf(branches.find((b) => b.type !== 'null') ?? branches[0], name, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const key of schema.required ?? []) out[key] = sampleOf(schema.properties?.[key], key, depth + 1);
      return out;
    }
    case 'array':
      return schema.minItems ? [sampleOf(schema.items, name, depth + 1)] : [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'string':
      if (name === 'id' || name === 'mapId') return 'MAP_ID';
      if (name === 'email') return 'someone@example.com';
      return /Id$/.test(name) ? name.replace(/Id$/, '-id').toUpperCase().replace(/-/g, '_') : name || 'text';
    default:
      return null;
  }
}

function curl(publicUrl: string, method: string, path: string, options: { json?: unknown; file?: ApiExample['file'] } = {}): string {
  const lines = [`curl${method === 'GET' ? '' : ` -X ${method}`} "${publicUrl}${path}"`, `  -H "Authorization: Bearer $MAPFOLD_TOKEN"`];
  if (options.json !== undefined) lines.push(`  -H "Content-Type: application/json"`, `  -d '${JSON.stringify(options.json)}'`);
  if (options.file) lines.push(`  -H "Content-Type: ${options.file.type}"`, `  --data-binary @${options.file.name}`);
  return lines.join(' \\\n');
}

const scopeLabel = (scope: RouteScope | 'outside' | undefined) =>
  scope === 'outside'
    ? '<span class="scope any">No token needed (none is read)</span>'
    : scope === 'any'
    ? '<span class="scope any">Any token, or none</span>'
    : scope
      ? `<span class="scope">Token scope <code>${scope}</code></span>`
      : '<span class="scope never">Signed in only: not with an API token</span>';

const TAG_TITLES: Record<string, string> = {
  functions: 'Functions',
  maps: 'Maps',
  sharing: 'Sharing',
  history: 'History',
  publishing: 'Publishing',
  insights: 'Insights',
  files: 'Files',
  templates: 'Templates',
  public: 'Published maps',
  accounts: 'Account',
  admin: 'Admin',
  billing: 'Billing',
  contact: 'Contact',
  config: 'Configuration',
  operations: 'Operations',
  basemap: 'Basemap',
};
const TAG_ORDER = Object.keys(TAG_TITLES);

function renderOperation(publicUrl: string, method: string, path: string, op: Operation): string {
  const pattern = path.replace(/\{(\w+)\}/g, ':$1');
  const key = `${method.toUpperCase()} ${pattern}`;
  const routeScope = !path.startsWith('/api/') || ROUTES_WITHOUT_CALLER.has(key) ? 'outside' : scopeOfRoute(method.toUpperCase(), pattern);
  const anchor = `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '');
  const parts = [`<section class="op" id="${anchor}"><h3><span class="method ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code></h3>`];
  parts.push(`<p class="meta">${scopeLabel(routeScope)}</p>`);
  const text = op.description ?? op.summary;
  if (text) parts.push(`<p>${prose(text)}</p>`);
  const params = op.parameters ?? [];
  if (params.length) {
    parts.push('<table><thead><tr><th>Parameter</th><th>In</th><th>Type</th><th>Notes</th></tr></thead><tbody>');
    for (const p of params) {
      parts.push(
        `<tr><td><code>${escapeHtml(p.name)}</code>${p.required ? ' <em>required</em>' : ''}</td><td>${p.in}</td><td>${escapeHtml(typeOf(p.schema))}</td><td>${p.description ? prose(p.description) : ''}</td></tr>`,
      );
    }
    parts.push('</tbody></table>');
  }
  const jsonBody = op.requestBody?.content?.['application/json']?.schema;
  const data = jsonBody?.properties?.data;
  if (data?.properties) {
    parts.push('<table><thead><tr><th><code>data</code> field</th><th>Type</th><th>Notes</th></tr></thead><tbody>');
    const required = new Set(data.required ?? []);
    for (const [name, field] of Object.entries(data.properties)) {
      parts.push(
        `<tr><td><code>${escapeHtml(name)}</code>${required.has(name) ? ' <em>required</em>' : ''}</td><td>${escapeHtml(typeOf(field))}</td><td>${field.description ? prose(field.description) : ''}</td></tr>`,
      );
    }
    parts.push('</tbody></table>');
  }
  if (routeScope && routeScope !== 'outside') {
    // A worked example's body where there is one (it is run by the tests), else one made from the schema.
    const worked = API_EXAMPLES.find((example) => example.method === method.toUpperCase() && example.path === path && example.json !== undefined);
    const json = worked ? worked.json : jsonBody ? sampleOf(jsonBody) : undefined;
    const example = curl(publicUrl, method.toUpperCase(), path.replace('{id}', 'MAP_ID'), json !== undefined ? { json } : {});
    parts.push(`<pre tabindex="0"><code>${escapeHtml(example)}</code></pre>`);
  }
  parts.push('</section>');
  return parts.join('\n');
}

/** The page, from the OpenAPI document. */
export function renderApiDocs(document: OpenApiDocument, publicUrl: string): string {
  const byTag = new Map<string, Array<{ method: string; path: string; op: Operation }>>();
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const tag = op.tags?.[0] ?? 'other';
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag)!.push({ method, path, op });
    }
  }
  const tags = [...byTag.keys()].sort((a, b) => (TAG_ORDER.indexOf(a) + 1 || 99) - (TAG_ORDER.indexOf(b) + 1 || 99) || a.localeCompare(b));
  const never = [
    ...Object.entries(FUNCTION_SCOPES)
      .filter(([, scope]) => scope === null)
      .map(([name]) => name),
    ...Object.entries(ROUTE_SCOPES)
      .filter(([, scope]) => scope === null)
      .map(([route]) => route),
  ];
  const examples = API_EXAMPLES.map(
    (example) => `<section class="example"><h3>${escapeHtml(example.title)} <span class="scope">needs <code>${example.scope}</code></span></h3><p>${prose(example.text)}</p>
${example.file ? `<p class="file">${escapeHtml(example.file.name)}:</p><pre tabindex="0"><code>${escapeHtml(example.file.content)}</code></pre>` : ''}
<pre tabindex="0"><code>${escapeHtml(curl(publicUrl, example.method, example.path, { ...(example.json !== undefined ? { json: example.json } : {}), ...(example.file ? { file: example.file } : {}) }))}</code></pre></section>`,
  ).join('\n');
  const nav = tags.map((tag) => `<li><a href="#tag-${tag}">${escapeHtml(TAG_TITLES[tag] ?? tag)}</a></li>`).join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference · Mapfold</title><meta name="description" content="The Mapfold API: API tokens, scopes, rate limits, errors and every endpoint with examples.">
<link rel="stylesheet" href="/docs/api.css"></head>
<body><header class="top"><a class="brand" href="/">Mapfold</a><span>API reference</span><a href="/account#api-tokens">Your API tokens</a></header>
<div class="layout"><nav class="toc" aria-label="Contents"><ul><li><a href="#authentication">Authentication</a></li><li><a href="#scopes">Scopes</a></li><li><a href="#limits">Rate limits</a></li><li><a href="#errors">Errors</a></li><li><a href="#examples">Examples</a></li>${nav}</ul><p><a href="/api/openapi.json">OpenAPI document (JSON)</a></p></nav>
<main>
<h1>${escapeHtml(document.info.title)} <small>${escapeHtml(document.info.version)}</small></h1>
<p class="lead">Everything the Mapfold app does goes through this API: read and edit maps, import spreadsheets, export locations. Commands are <code>POST /api/fn/{name}</code> with a JSON body <code>{"data": …}</code> and answer <code>{"result": …, "position": …}</code>; reads are plain <code>GET</code>s answering <code>{"result": …}</code>.</p>

<h2 id="authentication">Authentication</h2>
<p>Create a token in <a href="/account#api-tokens">Account → API tokens</a>: give it a name, choose its scopes and, if you like, an expiry. The token (it starts with <code>mf_</code>) is shown once: copy it then, as only its hash is kept. Send it in the <code>Authorization</code> header of every request:</p>
<pre tabindex="0"><code>export MAPFOLD_TOKEN=mf_…
${escapeHtml(curl(publicUrl, 'GET', '/api/maps'))}</code></pre>
<p>A token acts as the account that made it, under the same access rules: it reaches your own maps and the maps shared with you, with the role you have on each (an editor’s token edits but cannot delete or share the map), and never more. It never reaches billing, your account’s settings or your tokens, and never carries an admin’s powers. Revoke a token in the account page and it stops working at once; an expired or revoked token is answered <code>401</code>, saying which.</p>

<h2 id="scopes">Scopes</h2>
<table><thead><tr><th>Scope</th><th>Name in the app</th><th>What it opens</th></tr></thead><tbody>
${API_TOKEN_SCOPES.map((scope) => `<tr><td><code>${scope}</code></td><td>${API_TOKEN_SCOPE_LABELS[scope]}</td><td>${prose(SCOPE_TEXT[scope])}</td></tr>`).join('\n')}
</tbody></table>
<p>A request outside the token’s scopes is answered <code>403</code> (“This API token does not have the maps:write scope.”). Never with a token, whatever its scopes: ${never.map((name) => `<code>${escapeHtml(name)}</code>`).join(', ')}, and <code>/api/auth/*</code>. Each endpoint below says which scope it needs.</p>

<h2 id="limits">Rate limits</h2>
<p>Each token may make a limited number of requests a minute. Every answer to a token’s request carries <code>x-ratelimit-limit</code>, <code>x-ratelimit-remaining</code> and <code>x-ratelimit-reset</code> (seconds until the window ends). Past the limit the answer is <code>429</code> with <code>retry-after</code> in seconds: wait that long and send the request again.</p>

<h2 id="errors">Errors</h2>
<p>Errors answer with an HTTP status and a JSON body <code>{"error": {"status": "PERMISSION_DENIED", "message": "…"}}</code>; the message is written for a person. Statuses: 400 invalid argument, 401 unauthenticated (no token, or a token that is not valid, revoked or expired), 403 permission denied, 404 not found, 409 aborted (someone else changed it: read again and retry), 429 resource exhausted, 500 internal, 503 unavailable.</p>

<h2 id="examples">Examples</h2>
<p>Replace <code>MAP_ID</code> with a map’s id (the <code>id</code> of an entry of <code>GET /api/maps</code>, or the last part of its editor’s address).</p>
${examples}

${tags
  .map(
    (tag) => `<h2 id="tag-${tag}">${escapeHtml(TAG_TITLES[tag] ?? tag)}</h2>
${byTag
  .get(tag)!
  .map(({ method, path, op }) => renderOperation(publicUrl, method, path, op))
  .join('\n')}`,
  )
  .join('\n')}
</main></div></body></html>`;
}

export const API_DOCS_CSS = `*{box-sizing:border-box}body{margin:0;font:15px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;color:#0f172a;background:#fff}
a{color:#4338ca}code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.88em;background:#f1f5f9;border-radius:4px;padding:.1em .3em;overflow-wrap:anywhere}
pre{background:#0f172a;color:#e2e8f0;border-radius:8px;padding:12px 14px;overflow-x:auto;font-size:13px;line-height:1.5}pre code{background:none;color:inherit;padding:0;overflow-wrap:normal}pre:focus-visible{outline:2px solid #6366f1;outline-offset:2px}
.top{position:sticky;top:0;z-index:1;display:flex;gap:16px;align-items:center;padding:12px 20px;border-bottom:1px solid #e2e8f0;background:#fff}.top .brand{font-weight:700;color:#0f172a;text-decoration:none}.top span{color:#475569;flex:1}
.layout{display:flex;max-width:1200px;margin:0 auto}.toc{flex:0 0 220px;position:sticky;top:56px;align-self:flex-start;max-height:calc(100vh - 56px);overflow:auto;padding:20px;font-size:14px}.toc ul{list-style:none;margin:0;padding:0}.toc li{margin:4px 0}
main{flex:1;min-width:0;padding:20px 24px 64px}h1 small{font-size:.5em;color:#64748b;font-weight:500}h2{margin-top:2.2em;padding-top:.6em;border-top:1px solid #e2e8f0}.lead{font-size:1.05em;color:#334155}
table{border-collapse:collapse;width:100%;margin:8px 0 12px;font-size:14px}td:first-child code{white-space:nowrap;overflow-wrap:normal}th,td{text-align:left;vertical-align:top;border-bottom:1px solid #e2e8f0;padding:6px 8px}th{background:#f8fafc;font-weight:600}td em{color:#b45309;font-style:normal;font-size:.85em}
.op{border:1px solid #e2e8f0;border-radius:10px;padding:4px 16px 8px;margin:14px 0}.op h3{font-size:16px;margin:12px 0 4px;overflow-wrap:anywhere}.meta{margin:0 0 8px}
.method{display:inline-block;min-width:48px;text-align:center;border-radius:4px;padding:1px 6px;font-size:12px;font-weight:700;color:#fff;background:#0369a1}.method.post{background:#15803d}.method.delete{background:#b91c1c}
.scope{display:inline-block;font-size:12px;font-weight:500;border-radius:999px;padding:1px 8px;background:#eef2ff;color:#3730a3}.scope.any{background:#ecfdf5;color:#065f46}.scope.never{background:#fef2f2;color:#991b1b}
.example h3{font-size:16px}.file{margin-bottom:0;font-weight:600}
@media (max-width:760px){table{display:block;overflow-x:auto}.layout{display:block}.toc{position:static;max-height:none;border-bottom:1px solid #e2e8f0;padding:12px 16px}.toc ul{display:flex;flex-wrap:wrap;gap:4px 14px}main{padding:12px 16px 48px}.top{padding:10px 16px;gap:10px;font-size:14px}}`;

/** Registers the page and its stylesheet (not in the OpenAPI document: they are not the API). */
export async function apiDocsRoutes(app: FastifyInstance, publicUrl: string): Promise<void> {
  let page: string | null = null;
  app.get('/docs/api', { schema: { hide: true } }, async (_request, reply) => {
    page ??= renderApiDocs(app.swagger() as unknown as OpenApiDocument, publicUrl.replace(/\/$/, ''));
    reply.header('cache-control', 'public, max-age=300');
    return reply.type('text/html; charset=utf-8').send(page);
  });
  app.get('/docs/api.css', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'public, max-age=300');
    return reply.type('text/css; charset=utf-8').send(API_DOCS_CSS);
  });
}
