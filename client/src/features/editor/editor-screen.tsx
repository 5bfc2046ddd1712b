/**
 * The map editor (/maps/{id}): the map on a canvas, panels for locations, floors, groups, the
 * map's look, publishing and data; undo and redo; a preview of the published viewer. Every edit
 * is applied at once and saved as it is made (no Save button); the status line says where the
 * work stands, and another open editor of the same map sees each edit appear.
 *
 * Someone else's map (the demo behind /demo) opens for exploring: every edit works, stays in the
 * tab, and the page offers to sign up (or make one's own copy) to keep it.
 */
import { useEffect, useId, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import type { MapDocument } from '../../../../events/map-document';
import type { HistoryEntry } from '../../../../events/read-models';
import { Camera } from '../../components/map/camera';
import { AccessBanner } from './access-banner';
import { commentsHost, type EditorComments } from './comments-slot';
import { layerIdOf } from './controller/editor-controller';
import { tabLabelOf, visibleTabs } from './controller/editor-tabs';
import { useEditorController } from './controller/use-editor-controller';
import { EditorBar } from './editor-bar';
import { EditorIcon } from './editor-icons';
import { EditorPanelContent } from './editor-panel-content';
import type { EditorSession } from './editor-session';
import { EditorStage } from './editor-stage';
import { ExploreBanner } from './explore-banner';
import { PlaceOnMapContext } from './place-on-map';
import { PresenceProvider, usePresenceReport } from './presence';
import { SetAsideNotice } from './set-aside-notice';
import { historyFeedOf, isReadOnly, type EditorAccess, type HistoryFeed } from './use-editor-map';
import './editor.css';

export { titleFromElementId } from './controller/editor-controller';

const NO_HISTORY: readonly HistoryEntry[] = [];
const noHistoryFeed: HistoryFeed = { get: () => NO_HISTORY, subscribe: () => () => {} };

export interface EditorProps {
  mapId: string;
  access: EditorAccess;
  title: string;
  state: number | null;
  session: EditorSession;
  /** The map's history entries (the owner's); by default the ones the session's map was opened with. */
  history?: HistoryFeed | null;
  signedIn: boolean;
  onTitleChange: (title: string) => void;
  /** Links: the map list, sign-up, another map (after making a copy). */
  mapsHref: string;
  registerHref: string;
  mapHref: (id: string) => string;
  /**
   * Draws the map as visitors see it, with the unsaved document. The app passes the public
   * viewer itself (loaded when first asked for; it may suspend), so the editor does not
   * depend on the viewer feature.
   */
  renderPreview: (map: PreviewMap) => ReactNode;
  /** Comments (the panel and the pins), for the map's people; none when exploring. */
  comments?: EditorComments | null;
  /** The bar's Share button (who can open the map), given by the app; none when exploring. */
  renderSharing?: (map: { mapId: string; title: string }) => ReactNode;
  /** The owner's name, for a viewer's "ask … to make you an editor". */
  ownerName?: string | null;
}

/** The map the preview shows: the public viewer's input, holding the tab's current document. */
export interface PreviewMap {
  id: string;
  title: string;
  state: number;
  data: MapDocument;
  revision: string;
  test: boolean;
}

export function Editor({ mapId, access, title, state, session, history, signedIn, onTitleChange, mapsHref, registerHref, mapHref, renderPreview, comments = null, renderSharing, ownerName = null }: EditorProps) {
  const snapshot = useSyncExternalStore(session.subscribe, session.getSnapshot);
  const historyFeed = history === undefined ? historyFeedOf(session) : history;
  const historyEntries = useSyncExternalStore((historyFeed ?? noHistoryFeed).subscribe, (historyFeed ?? noHistoryFeed).get);
  const doc = snapshot.document;
  const camera = useMemo(() => new Camera(), []);
  useEffect(() => () => camera.dispose(), [camera]);
  const explore = access === 'explore';
  const readOnly = isReadOnly(access);
  // Selection, floor, panel, tools and every mode: the controller's (controller/editor-controller.ts).
  const { controller, state: ui, rendererRef, attachView, screen, centreOn } = useEditorController({ session, camera, explore });
  const ids = useId();

  const layerId = layerIdOf(ui, doc);
  const selected = ui.selectedId ? doc.locations.find((location) => location.id === ui.selectedId) ?? null : null;
  const host = comments && commentsHost({ document: doc, layerId, camera, screen, rendererRef, selectedLocationId: selected?.id ?? null, setLayer: controller.setLayer, openPanel: () => controller.openTab('comments'), setPanelOpen: controller.setPanelOpen });
  const tabs = visibleTabs(access, comments !== null);
  const { tab, panelOpen } = ui;
  return (
    <PresenceProvider mapId={mapId} enabled={!explore}>
    <PresenceReport selection={selected ? selected.id : null} editing={selected && panelOpen && tab === 'locations' ? selected.id : null} />
    <div className="ed" data-panel-open={panelOpen ? 'true' : 'false'}>
      <title>{`${title} · Editor · Mapfold`}</title>
      <EditorBar
        controller={controller}
        snapshot={snapshot}
        document={doc}
        centreOn={centreOn}
        mapId={mapId}
        title={title}
        explore={explore}
        titleEditable={!explore && !readOnly}
        preview={ui.preview}
        mapsHref={mapsHref}
        onTitleChange={onTitleChange}
        sharing={!explore && access !== 'removed' && renderSharing ? renderSharing({ mapId, title }) : null}
      />

      {explore ? <ExploreBanner signedIn={signedIn} title={title} document={doc} registerHref={registerHref} mapHref={mapHref} /> : null}
      <AccessBanner access={access} ownerName={ownerName} mapsHref={mapsHref} />
      <SetAsideNotice mapId={mapId} session={session} active={!explore} />
      {snapshot.error ? (
        <div className="ed-alert" role="alert">
          <span>Not saved: {snapshot.error} Your last change was taken back.</span>
          <button type="button" className="ed-icon-button" aria-label="Dismiss" onClick={session.dismissError}>
            <EditorIcon name="close" size={16} />
          </button>
        </div>
      ) : null}

      <div className="ed-body">
        <div className="ed-rail" role="tablist" aria-label="Editor panels">
          {tabs.map((candidate) => (
            <button
              key={candidate.id}
              type="button"
              role="tab"
              id={`${ids}-tab-${candidate.id}`}
              aria-selected={tab === candidate.id}
              aria-controls={`${ids}-panel`}
              className="ed-rail__tab"
              onClick={() => controller.pressTab(candidate.id)}
            >
              <EditorIcon name={candidate.icon} size={20} />
              <span>{candidate.label}</span>
            </button>
          ))}
        </div>
        <section className="ed-panel" role="tabpanel" id={`${ids}-panel`} aria-labelledby={`${ids}-tab-${tab}`}>
          <div className="ed-panel__head">
            <h2 className="ed-panel__title">{tabLabelOf(tab)}</h2>
            <button type="button" className="ed-icon-button ed-panel__close" aria-label="Close the panel" onClick={() => controller.setPanelOpen(false)}>
              <EditorIcon name="close" size={16} />
            </button>
          </div>
          <div className="ed-panel__body">
            {/* Viewers comment too, and read the history (the panel keeps its own changes closed to them). */}
            <fieldset className="ed-readonly" disabled={readOnly && !((tab === 'comments' || tab === 'history') && access === 'viewer')}>
              <PlaceOnMapContext.Provider value={readOnly ? null : controller.placeOnMap}>
                <EditorPanelContent
                  controller={controller}
                  ui={ui}
                  document={doc}
                  layerId={layerId}
                  selectedId={selected ? selected.id : null}
                  camera={camera}
                  rendererRef={rendererRef}
                  mapId={mapId}
                  title={title}
                  state={state}
                  explore={explore}
                  readOnly={readOnly}
                  history={explore || !historyFeed ? null : historyEntries}
                  comments={comments}
                  commentsHost={host}
                />
              </PlaceOnMapContext.Provider>
            </fieldset>
          </div>
        </section>
        <EditorStage
          controller={controller}
          ui={ui}
          document={doc}
          layerId={layerId}
          selected={selected}
          camera={camera}
          rendererRef={rendererRef}
          attachView={attachView}
          screen={screen}
          mapId={mapId}
          explore={explore}
          readOnly={readOnly}
          preview={() => renderPreview({ id: mapId, title, state: state ?? 0, data: doc, revision: String(session.revision), test: false })}
          pins={host ? comments!.pins(host) : null}
        />
      </div>
    </div>
    </PresenceProvider>
  );
}

/** Tells the others in the map which location this tab has selected and which one's form is open. */
function PresenceReport(state: { selection: string | null; editing: string | null }) {
  usePresenceReport(state);
  return null;
}
