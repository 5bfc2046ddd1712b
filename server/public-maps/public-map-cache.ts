/**
 * Published maps from memory: the public JSON (`GET /api/public/maps/:id`) and the viewer page
 * (`GET /m/:id`) of a published map (state 1 and above) are built once per map revision,
 * compressed once (encoded-body.ts) and kept in a bounded LRU counted in bytes, so a read or a
 * 304 of a cached map touches no database.
 *
 * Freshness: every process LISTENs to the projections' notices (projections/live-notices.ts);
 * a `map:{id}` topic from any projection drops that map's entries. `map_data` names it on every
 * event of the map (edits, state changes, deletion, creation) and `maps_list` on the changes of
 * its row that decide who sees the map (created, state changed, deleted): the answer joins
 * both tables and they commit separately, so whichever commits second drops what was built
 * between the two.
 *
 * A load that began before a notice may finish after it with what it read before: each load
 * holds a token, a notice takes it away, and a load without its token answers its own request
 * but stores nothing. Loads of one key share one query (a burst after a publish reads once).
 *
 * Test maps (state 0) are never kept: who may see one is decided per request (the route).
 * Maps that do not exist are remembered briefly (a bounded set, dropped by the same notices
 * when the map is created), so a deleted embed that keeps being asked for costs no query.
 */
import { LRUCache } from 'lru-cache';
import { lruOfAtMost } from '../lru-of-at-most.js';
import { withoutForeignLayerFiles, type MapDocument } from '../../events/map-document.js';
import { hiddenLocationIds, visitorDocument, VISITOR_DOCUMENT_VERSION } from '../../events/visitor-document.js';
import { usesTestSlot } from '../../events/map-states.js';
import type { PublicMap } from '../../events/http-api.js';
import { localeOfTag, resolveViewerLocale, VIEWER_LOCALES, type ViewerLocale } from '../../events/locales.js';
import { parseTopic } from '../../events/topics.js';
import { LIVE_CHANNEL, LiveNotice } from '../../projections/live-notices.js';
import type { Database } from '../../ports/database.js';
import { contentEtag, encodeBody, type EncodedBody } from './encoded-body.js';
import { PublishedMaps, type PublicMapRow, type PublishedStateReader } from './published-map.js';
import type { ViewerPageRenderer } from './viewer-page.js';

/**
 * A kept answer: its bytes, and (the JSON's) the ids of the map's hidden locations, which the
 * insights beacon counts nothing for (routes/insights-routes.ts); learnt and dropped with the
 * answer, so they always belong to the revision served.
 */
export type PublicMapBody = EncodedBody & { hiddenLocations?: ReadonlySet<string> };

export type PublicMapLookup =
  /** Published: the answer, ready in every encoding. */
  | {
      kind: 'published';
      body: PublicMapBody;
      /** A page whose language the visitor's `Accept-Language` chose (the answer varies with it). */
      byVisitor?: boolean;
    }
  /** A test map: the route decides who may see it; never kept. */
  | { kind: 'test'; map: PublicMap }
  | { kind: 'absent' };

type Kind = 'json' | 'html';

/** What a page request says of the language it wants (events/locales.ts). */
export interface PageLanguageRequest {
  /** `?lang=`. */
  param?: string | null;
  /** The visitor's languages, from `Accept-Language`, most preferred first. */
  preferences: readonly string[];
}

export type { PublicMapRow };

/** A document's `settings.language` as the read model has it (older documents: none, so `auto`). */
function languageOf(data: unknown): string {
  const language = (data as { settings?: { language?: unknown } } | null)?.settings?.language;
  return typeof language === 'string' ? language : 'auto';
}

/** The answer's body: `{result}` as every read answers, serialised once. */
export function publicMapJson(map: PublicMap): Buffer {
  return Buffer.from(JSON.stringify({ result: map }));
}

export interface PublicMapCacheOptions {
  db: Pick<Database, 'query' | 'listen'>;
  /** The LRU's bound: all kept bodies' bytes, every encoding counted (PUBLIC_MAP_CACHE_BYTES). */
  maxBytes: number;
  renderer: ViewerPageRenderer;
  logger: { warn(details: object, message: string): void };
  /**
   * How long an entry may be served without a notice (ms). Notices are the freshness, and the
   * cache starts afresh when its LISTEN connection comes back after a drop; this only bounds
   * how long any notice lost some other way could leave a map stale.
   */
  maxAgeMs?: number;
  /** How long an unknown id is remembered (ms). */
  absentMs?: number;
  /** A manual map's published revision, folded from its stream (server/public-maps/published-map.ts). */
  readPublished?: PublishedStateReader;
}

/** Unknown ids remembered at once: a flood of made-up ids cannot grow it, nor evict maps. */
const MAX_ABSENT = 10_000;
const SHELL_KEY = 'shell:';

export interface PublicMapCacheStats {
  bytes: number;
  entries: number;
  absent: number;
  hits: number;
  misses: number;
}

interface Loading {
  promise?: Promise<PublicMapLookup>;
}

export class PublicMapCache {
  private readonly entries: LRUCache<string, PublicMapBody>;
  private readonly absent: LRUCache<string, true>;
  /** Map id -> its `settings.language`, learnt with its JSON; dropped with the map's entries. */
  private readonly languages = lruOfAtMost<string, string>(100_000);
  /** Key -> the load in flight; a notice removes it, which tells the load not to store. */
  private readonly loading = new Map<string, Loading>();
  private unlisten: (() => Promise<void>) | null = null;
  /** Answers from memory (a kept map, or an id known not to exist) and answers that read the database. */
  private hits = 0;
  private misses = 0;
  /** Which revision the public sees: the current one, or a manual map's published one. */
  private readonly published: PublishedMaps;

  constructor(private readonly options: PublicMapCacheOptions) {
    this.published = new PublishedMaps(options.readPublished);
    this.entries = new LRUCache<string, PublicMapBody>({
      maxSize: options.maxBytes,
      sizeCalculation: (body) => Math.max(1, body.size),
      ttl: options.maxAgeMs ?? 5 * 60_000,
    });
    this.absent = lruOfAtMost<string, true>(MAX_ABSENT, { ttl: options.absentMs ?? 60_000 });
  }

  async start(): Promise<void> {
    // Back after a lost connection, the notices sent meanwhile are gone: start afresh.
    this.unlisten = await this.options.db.listen(LIVE_CHANNEL, (payload) => this.onNotice(payload), { onReconnect: () => this.clear() });
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.unlisten = null;
  }

  /** The public JSON of map `id` (an id already checked to be well formed). */
  json(id: string): Promise<PublicMapLookup> {
    return this.lookup('json', id);
  }

  /**
   * The viewer page of map `id` in the language the request and the map's setting choose
   * (`?lang=`, else the map's language, else the visitor's), rendered once per revision and
   * language. The map's setting is learnt with its JSON, which a page's first read loads too.
   */
  async page(id: string, request: PageLanguageRequest = { preferences: [] }): Promise<PublicMapLookup> {
    let setting = this.languages.get(id);
    // `?lang=` naming a catalogue decides alone; otherwise the map's setting is needed first.
    if (setting === undefined && !(request.param && localeOfTag(request.param))) {
      const json = await this.lookup('json', id);
      if (json.kind !== 'published') return json;
      setting = this.languages.get(id);
    }
    const { locale, byVisitor } = resolveViewerLocale({ param: request.param ?? null, setting: setting ?? null, preferences: request.preferences });
    const found = await this.lookup('html', id, locale);
    return found.kind === 'published' ? { ...found, byVisitor } : found;
  }

  /** The page for maps a visitor may not see and for test maps; the same for every map. */
  async shell(): Promise<EncodedBody> {
    const kept = this.entries.get(SHELL_KEY);
    if (kept) return kept;
    const html = Buffer.from(await this.options.renderer.shell());
    const body = await encodeBody(html, contentEtag('shell', html));
    this.entries.set(SHELL_KEY, body, { ttl: 0 });
    return body;
  }

  /** Drops what is kept of map `id`, and makes loads of it in flight store nothing. */
  invalidate(id: string): void {
    for (const key of [`json:${id}`, ...VIEWER_LOCALES.map((locale) => `html:${id}:${locale}`)]) {
      this.entries.delete(key);
      this.loading.delete(key);
    }
    this.absent.delete(id);
    this.languages.delete(id);
  }

  /** Drops everything (a LISTEN connection that was lost may have missed notices). */
  clear(): void {
    this.entries.clear();
    this.absent.clear();
    this.loading.clear();
    this.languages.clear();
  }

  /** Bytes and entries kept now, and reads answered from memory or not since the start (metrics, tests). */
  get stats(): PublicMapCacheStats {
    return { bytes: this.entries.calculatedSize, entries: this.entries.size, absent: this.absent.size, hits: this.hits, misses: this.misses };
  }

  /**
   * The kept JSON of map `id`, if any, at once (no promise): what a conditional request is
   * checked against before any other work (routes/public-map-routes.ts).
   */
  peekJson(id: string): PublicMapBody | undefined {
    const body = this.entries.get(`json:${id}`);
    if (body) this.hits++;
    return body;
  }

  /** Whether `kind` of map `id` is kept now (a page: in any language), without touching its recency. */
  has(kind: Kind, id: string): boolean {
    if (kind === 'json') return this.entries.has(`json:${id}`);
    return VIEWER_LOCALES.some((locale) => this.entries.has(`html:${id}:${locale}`));
  }

  private lookup(kind: Kind, id: string, locale: ViewerLocale = 'en'): Promise<PublicMapLookup> {
    const key = kind === 'json' ? `json:${id}` : `html:${id}:${locale}`;
    const body = this.entries.get(key);
    if (body) {
      this.hits++;
      return Promise.resolve({ kind: 'published', body });
    }
    if (this.absent.has(id)) {
      this.hits++;
      return Promise.resolve({ kind: 'absent' });
    }
    this.misses++;
    const pending = this.loading.get(key)?.promise;
    if (pending) return pending;
    const loading: Loading = {};
    this.loading.set(key, loading);
    loading.promise = this.load(kind, id, key, loading, locale).finally(() => {
      if (this.loading.get(key) === loading) this.loading.delete(key);
    });
    return loading.promise;
  }

  private async load(kind: Kind, id: string, key: string, loading: Loading, locale: ViewerLocale): Promise<PublicMapLookup> {
    const current = () => this.loading.get(key) === loading;
    const row = await this.published.load(this.options.db, id);
    if (!row) {
      if (current()) this.absent.set(id, true);
      return { kind: 'absent' };
    }
    const test = usesTestSlot(row.state);
    // A row written before floors had to be the product's own files may still name another
    // site's drawing (until the read model is rebuilt): never hand it to a viewer.
    const stored = withoutForeignLayerFiles(row.data) as MapDocument;
    // What visitors may see, the one source of every public answer (the JSON, the page and its
    // data block, embeds, pictures saved from them): nothing "Hidden from visitors" (events/visitor-document.ts).
    const map: PublicMap = { id: row.id, title: row.title, state: row.state, data: visitorDocument(stored), revision: row.revision, test };
    if (test) return { kind: 'test', map };
    const body: PublicMapBody =
      kind === 'json'
        ? await this.encodeJson(map, hiddenLocationIds(stored))
        : await this.renderPage(map, locale);
    if (current()) {
      this.entries.set(key, body);
      this.languages.set(id, languageOf(row.data));
    }
    return { kind: 'published', body };
  }

  /**
   * The ETag names the map's revision and state, and the rules visitors' copies are made by
   * ({@link VISITOR_DOCUMENT_VERSION}): a copy kept before a rule changed is sent again, not 304.
   */
  private async encodeJson(map: PublicMap, hiddenLocations: ReadonlySet<string>): Promise<PublicMapBody> {
    const body = await encodeBody(publicMapJson(map), `"v${VISITOR_DOCUMENT_VERSION}.${map.id}.${map.revision}.${map.state}"`);
    return hiddenLocations.size > 0 ? { ...body, hiddenLocations } : body;
  }

  private async renderPage(map: PublicMap, locale: ViewerLocale): Promise<EncodedBody> {
    const html = Buffer.from(await this.options.renderer.render(map, locale));
    // The page also depends on the build (its scripts' names): the ETag names its bytes.
    return encodeBody(html, contentEtag(`${map.id}.${map.revision}.${map.state}.${locale}`, html));
  }

  private onNotice(payload: string): void {
    let notice: LiveNotice;
    try {
      notice = LiveNotice.parse(JSON.parse(payload));
    } catch (error) {
      this.options.logger.warn({ err: error }, 'unreadable live notice ignored by the public map cache');
      return;
    }
    for (const text of notice.topics) {
      const topic = parseTopic(text);
      if (topic?.kind === 'map') this.invalidate(topic.mapId);
    }
  }
}
