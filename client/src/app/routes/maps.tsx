// The editor draws with the viewer's components: their words in English (issue 19: the app stays English for now).
import '../../i18n/english-fallback';
import { lazy, Suspense } from 'react';
import { useParams } from 'react-router-dom';
import { Alert } from '../../components/ui/alert';
import { ButtonLink } from '../../components/ui/button';
import { PageSpinner } from '../../components/ui/spinner';
import { isViewerLocale } from '../../../../events/locales';
import { I18nProvider, useTranslator } from '../../i18n/i18n-context';
import type { Translator } from '../../i18n/translator';
import { useCatalogue } from '../../i18n/use-catalogue';
import type { PreviewMap } from '../../features/editor/editor-screen';
import { useEditorMap } from '../../features/editor/use-editor-map';
import { useComments } from '../../features/comments/use-comments';
import { MapsDashboard } from '../../features/maps/components/maps-dashboard';
import { NewMapScreen } from '../../features/new-map/new-map-page';
import { ShareButton } from '../../features/sharing/components/share-button';
import { SharedMaps } from '../../features/sharing/components/shared-maps';
import { paths } from '../../lib/paths';
import { useSession } from '../../lib/session';

/**
 * The editor is the biggest part of the app and only signed-in builders open it: it loads as
 * its own chunk, so the public pages do not carry it.
 */
const Editor = lazy(() => import('../../features/editor/editor-screen').then((module) => ({ default: module.Editor })));

/** The editor's preview is the public viewer itself, loaded when first asked for. */
const Viewer = lazy(() => import('../../features/viewer/viewer').then((module) => ({ default: module.Viewer })));
/**
 * The translator of the map's language setting for its preview: a fixed language's catalogue
 * (fetched once), English for 'auto' (the visitors' browsers decide; the editor is English) and
 * while a catalogue loads.
 */
function usePreviewTranslator(language: string): Translator {
  const english = useTranslator();
  const locale = isViewerLocale(language) && language !== 'en' ? language : null;
  const loaded = useCatalogue(locale);
  return loaded && loaded.locale === locale ? loaded : english;
}

/**
 * The preview shows directions to admins on any map with paths (the app's session knows), in
 * the viewer's language when the map sets one, right to left for Arabic.
 */
function ViewerPreview({ map }: { map: PreviewMap }) {
  const { admin } = useSession();
  const translator = usePreviewTranslator(map.data.settings.language);
  return (
    <I18nProvider translator={translator}>
      <div className="ed-preview__language" lang={translator.locale} dir={translator.dir}>
        <Viewer map={map} admin={admin} />
      </div>
    </I18nProvider>
  );
}
const viewerPreview = (map: PreviewMap) => <ViewerPreview map={map} />;

/** The editor bar's Share button: who can open the map (the sharing feature). */
const shareButton = ({ mapId, title }: { mapId: string; title: string }) => <ShareButton mapId={mapId} mapTitle={title} />;

/** /maps: the signed-in user's maps, live. */
export function MapsPage() {
  const { user } = useSession();
  if (!user) return null;
  return (
    <div className="page">
      <title>Your maps · Mapfold</title>
      <div className="container">
        <div className="page-header">
          <h1>Your maps</h1>
          <p>Build, publish and manage your interactive maps.</p>
        </div>
        <MapsDashboard user={user} mapHref={paths.map.to} viewHref={paths.viewer.to} subscribeHref={paths.subscribe} />
        {/* Others' maps: apart from one's own, never counted against slots or test maps. */}
        <SharedMaps mapHref={paths.map.to} />
      </div>
    </div>
  );
}

/** /maps/new: a title and a starting point (blank, an upload, a built-in map), then the new map. */
export function NewMapPage() {
  return <NewMapScreen mapHref={paths.map.to} backHref={paths.maps} />;
}

/** /maps/:id: the map editor; someone else's map (the demo) opens for exploring. */
export function MapPage() {
  const { id = '' } = useParams();
  const { status, user, maps } = useSession();
  const signedIn = status === 'signedIn';
  // The map's state as the live maps list has it (published or unpublished since it was opened), for the owner.
  const liveState = maps.find((map) => map.id === id)?.state;
  const { load, setTitle } = useEditorMap(id, status === 'loading' ? null : signedIn, user?.uid ?? null);
  const comments = useComments(id, user, load.status === 'ready' && load.access !== 'explore');

  if (status === 'loading' || load.status === 'loading') return <PageSpinner label="Opening the map" />;

  if (load.status === 'failed') {
    const { error } = load;
    return (
      <div className="page">
        <title>Map · Mapfold</title>
        <div className="container narrow">
          <h1>{error.code === 'not-found' ? 'Map not found' : 'This map could not be opened'}</h1>
          <Alert>{error.code === 'not-found' ? 'This map does not exist, or it is not shared with you.' : error.message}</Alert>
          <div className="simple-actions">
            {!signedIn ? (
              <ButtonLink to={paths.login} state={{ from: { pathname: paths.map.to(id), search: '', hash: '' } }}>
                Log in
              </ButtonLink>
            ) : null}
            <ButtonLink to={signedIn ? paths.maps : paths.home} variant="secondary">
              {signedIn ? 'Your maps' : 'Home'}
            </ButtonLink>
          </div>
        </div>
      </div>
    );
  }

  return (
    <Suspense fallback={<PageSpinner label="Opening the map" />}>
      <Editor
        key={id}
        mapId={id}
        access={load.access}
        title={load.title}
        state={liveState ?? load.state}
        session={load.session}
        signedIn={signedIn}
        onTitleChange={setTitle}
        mapsHref={paths.maps}
        registerHref={paths.register}
        mapHref={paths.map.to}
        renderPreview={viewerPreview}
        comments={comments}
        renderSharing={shareButton}
        ownerName={load.ownerName}
      />
    </Suspense>
  );
}
