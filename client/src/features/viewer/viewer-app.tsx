/**
 * The viewer page for one map: loads it from the public read API, then shows it, or says why
 * it cannot. Used by the main app's /m/:id route and by the viewer's own entry (viewer.html,
 * served at /m/{id}) when the page comes without the map (a test map, an unknown id): a
 * published map's page hydrates published-viewer.tsx alone and never loads this.
 */
import { useEffect, useState } from 'react';
import { I18nProvider } from '../../i18n/i18n-context';
import { useViewerTranslator } from '../../i18n/use-viewer-translator';
import type { Translator } from '../../i18n/translator';
import { startInsights } from './insights';
import { isEmbedded, markReady, PublishedViewer } from './published-viewer';
import { Viewer, type PublicMap } from './viewer';

type Loaded = { status: 'loading' } | { status: 'ready'; map: PublicMap } | { status: 'error'; notFound: boolean; message: string };

/** The request viewer.html starts for its map while the scripts load (used once). */
function takePrefetched(id: string): Promise<Response> | null {
  const holder = window as { __mapfoldPrefetch?: { id: string; answer: Promise<Response> } };
  const prefetched = holder.__mapfoldPrefetch;
  if (!prefetched || prefetched.id !== id) return null;
  delete holder.__mapfoldPrefetch;
  return prefetched.answer;
}

/** The page's view link key (`/m/{id}?key=…`: "anyone with the link can view" an unpublished map), if any. */
function viewLinkQuery(): string {
  const key = typeof location === 'undefined' ? null : new URLSearchParams(location.search).get('key');
  return key ? `?key=${encodeURIComponent(key)}` : '';
}

export async function fetchPublicMap(id: string, signal?: AbortSignal): Promise<PublicMap> {
  const response = await (takePrefetched(id) ??
    fetch(`/api/public/maps/${encodeURIComponent(id)}${viewLinkQuery()}`, { credentials: 'same-origin', ...(signal ? { signal } : {}) }));
  const body = (await response.json().catch(() => null)) as { result?: PublicMap; error?: { message?: string } } | null;
  if (!response.ok || !body?.result) {
    const error = new Error(body?.error?.message ?? `The map could not be loaded (${response.status}).`) as Error & { status: number };
    error.status = response.status;
    throw error;
  }
  return body.result;
}

export interface ViewerAppProps {
  mapId: string;
  cooperative?: boolean;
  /**
   * The map the server rendered the page with (its JSON in the page, client/src/viewer-boot.ts):
   * shown at once, hydrating the server's markup, and not fetched again.
   */
  initial?: PublicMap;
  /** The site's public address (the server's, in a server-rendered page). */
  publicUrl?: string;
  /** The visitor is an admin (the main app knows; the viewer's own page never asks). */
  admin?: boolean;
}

export function ViewerApp({ mapId, cooperative, initial, publicUrl, admin = false }: ViewerAppProps) {
  const [loaded, setLoaded] = useState<Loaded>(initial ? { status: 'ready', map: initial } : { status: 'loading' });
  const [embedded] = useState(() => cooperative ?? isEmbedded());

  useEffect(() => {
    if (initial && initial.id === mapId) return;
    const controller = new AbortController();
    setLoaded({ status: 'loading' });
    fetchPublicMap(mapId, controller.signal).then(
      (map) => setLoaded({ status: 'ready', map }),
      (error: Error & { status?: number }) => {
        if (controller.signal.aborted) return;
        setLoaded({ status: 'error', notFound: error.status === 404, message: error.message });
      },
    );
    return () => controller.abort();
  }, [mapId, initial]);

  // Numbers for the owner (insights.ts): a published map's page counts its visit, not a test
  // map's (the server's map counts in PublishedViewer).
  const countedMap = loaded.status === 'ready' && !loaded.map.test && !initial ? loaded.map.id : null;
  useEffect(() => (countedMap ? startInsights(countedMap) : undefined), [countedMap]);

  // The viewer's language: the map's once it is loaded (events/locales.ts), the browser's before.
  const translator = useViewerTranslator(loaded.status === 'ready' ? (loaded.map.data.settings.language ?? 'auto') : undefined);
  if (loaded.status === 'ready' && translator) {
    return (
      <I18nProvider translator={translator}>
        {initial ? (
          <PublishedViewer map={loaded.map} cooperative={cooperative} publicUrl={publicUrl} />
        ) : (
          <>
            <title>{`${loaded.map.title} · Mapfold`}</title>
            <Viewer map={loaded.map} cooperative={embedded} onReady={markReady} admin={admin} {...(publicUrl ? { publicUrl } : {})} />
          </>
        )}
      </I18nProvider>
    );
  }
  return <ViewerMessage loaded={loaded.status === 'error' ? loaded : null} translator={translator} />;
}

/** The page while the map (or its words) load, or why it cannot be shown. */
function ViewerMessage({ loaded, translator }: { loaded: Extract<Loaded, { status: 'error' }> | null; translator: Translator | null }) {
  const t = translator?.t;
  return (
    <div className="mfv mfv--message">
      {t ? <title>{loaded ? t('viewer.unavailableTitle') : t('viewer.loadingTitle')}</title> : null}
      {!loaded || !t ? (
        <div className="mf-loading" role="status" aria-label={t ? t('viewer.loading') : undefined} aria-busy="true">
          <span className="mf-loading__ring" aria-hidden="true" />
        </div>
      ) : (
        <div className="mf-message" role="alert">
          <h1>{loaded.notFound ? t('viewer.notAvailable') : t('viewer.notLoaded')}</h1>
          <p>{loaded.notFound ? t('viewer.notAvailableHelp') : loaded.message}</p>
          <a className="mf-button mf-button--primary" href="/">
            {t('viewer.goHome')}
          </a>
        </div>
      )}
    </div>
  );
}
