/**
 * The public map viewer: the map (through the reusable {@link MapRenderer}), the directory
 * with search and group filters, the legend, zoom and fullscreen controls, the minimap, the
 * layer switcher, a tooltip on hover, the details popup, deep links and the share menu.
 * Which parts show follows the document's `settings.features`; colours follow its theme.
 * What is open, selected and filtered is the controller's (controller/viewer-controller.ts);
 * this lays it out.
 */
import { Suspense, useCallback, useEffect, useMemo, useRef, type CSSProperties, type ReactNode } from 'react';
import { Camera } from '../../components/map/camera';
import { MapRenderer } from '../../components/map/map-renderer';
import type { Location, MapDocument } from '../../components/map/types';
import { loadPurifier } from '../../lib/purifier';
import { Icon } from './icons';
import { directionsAllowed } from '../../../../events/wayfinding/directions-allowed';
import { loadSearch } from './controller/viewer-controller';
import { useBrowserFact, useMediaQuery, useViewerController } from './controller/use-viewer';
import { Details, LazyDirectory, loadPopup, ShareMenu, Tooltip } from './viewer-parts';
import { ActionButtons, BottomBar, FloorSwitcher, MapControls, TopBar } from './viewer-controls';
import { useTranslator } from '../../i18n/i18n-context';
import './viewer.css';
// The store locator's control is in the server's page (viewer-directory.tsx): its look comes with the page's, not with its code.
import './store-locator/near-panel.css';

export { preloadViewerParts } from './viewer-parts';

/** What `GET /api/public/maps/:id` answers. */
export interface PublicMap {
  id: string;
  title: string;
  state: number;
  data: MapDocument;
  revision: string;
  /** A test map: only its owner and admins see it. */
  test: boolean;
}

export interface ViewerProps {
  map: PublicMap;
  /** Embedded in another page: the page keeps its scrolling (wheel zoom needs focus or Ctrl). */
  cooperative?: boolean;
  /** The site's public address, for the share link and the embed code. */
  publicUrl?: string;
  /** The map is on screen for the first time. */
  onReady?: () => void;
  /**
   * Hydrating the page the server rendered (client/src/viewer-server.tsx): the first render
   * must be the server's, which knew neither the screen nor the address (a deep link, a
   * phone's layout and the legend follow right after).
   */
  serverRendered?: boolean;
  /**
   * The visitor is an admin: directions show on any map with a network. Only the main app
   * passes it (its /m/:id page and the editor's preview, where the session is loaded anyway);
   * the standalone viewer page never asks who is calling, so /m/{id} and the public map API
   * stay the same for everyone and cacheable by CDNs (events/wayfinding/directions-allowed.ts).
   */
  admin?: boolean;
  /**
   * The shown locations' indices in the directory's order, as the server sorted them for the
   * page (events/directory-order.ts): a hint that makes the viewer's own sort one pass.
   */
  directoryOrder?: readonly number[] | undefined;
}

const NARROW = '(max-width: 720px)';
const isMac = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
const fullscreenEnabled = () => document.fullscreenEnabled;

export function Viewer({ map, cooperative = false, publicUrl = typeof window === 'undefined' ? '' : window.location.origin, onReady, serverRendered = false, admin = false, directoryOrder }: ViewerProps) {
  const { t, dir } = useTranslator();
  const doc = map.data;
  const { features, theme } = doc.settings;
  const camera = useMemo(() => new Camera(), []);
  useEffect(() => () => camera.dispose(), [camera]);
  const rootRef = useRef<HTMLDivElement>(null);
  const shareToggleRef = useRef<HTMLButtonElement>(null);
  const listToggleRef = useRef<HTMLButtonElement>(null);
  const directionsToggleRef = useRef<HTMLButtonElement>(null);
  const sheetRef = useRef<HTMLDivElement>(null);
  const narrow = useMediaQuery(NARROW);
  const medium = useMediaQuery('(max-width: 1024px), (max-height: 560px)');
  const directionsOffered = useMemo(() => directionsAllowed({ state: map.state, paths: doc.paths, admin }), [map.state, doc.paths, admin]);

  const [controller, state] = useViewerController(
    doc,
    { serverRendered, directions: directionsOffered, ui: { root: rootRef, targets: { share: shareToggleRef, list: listToggleRef, directions: directionsToggleRef, sheet: sheetRef } } },
    narrow,
  );
  const { selectedId, query, activeGroups, sheetOpen, shareOpen, route, directionsCode, hint, toast, fullscreen } = state;
  const layer = controller.layer;
  const shown = controller.shownLocations;
  const byId = controller.byId;
  const groupsById = useMemo(() => new Map(doc.groups.map((group) => [group.id, group])), [doc.groups]);
  const shownRoute = controller.shownRoute;
  const matching = controller.matching;
  const visibleIds = controller.visibleIds;

  const describe = useCallback(
    (location: Location) => {
      const groups = location.groups.map((id) => groupsById.get(id)?.name).filter(Boolean);
      return [location.title, ...groups].join(t('viewer.comma'));
    },
    [groupsById, t],
  );

  const readyOnce = useRef(false);
  // A layer's drawing is in: regions can say where they are (anchors for the popup, fly-to).
  const onLayerReady = () => {
    controller.viewReady();
    if (readyOnce.current) return;
    readyOnce.current = true;
    onReady?.();
    // The embed SDK (/embed.js on the host page): its bridge (embed-bridge.ts) is loaded only in
    // an iframe whose address names the host's origin, once the map is on screen; it drives the controller.
    if (location.search.includes('host=')) void import('./embed-bridge').then((code) => code.connectHost(controller));
    // The details popup, and DOMPurify for descriptions: fetched while the visitor looks around.
    const idle = (window as { requestIdleCallback?: (callback: () => void) => void }).requestIdleCallback ?? ((callback: () => void) => setTimeout(callback, 300));
    idle(() => {
      void loadPopup();
      void loadSearch().catch(() => undefined);
      if (doc.locations.some((location) => location.description)) void loadPurifier();
    });
  };

  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void rootRef.current?.requestFullscreen?.();
  };

  const selected = controller.selected;
  const hovered = state.hoveredId && state.hoveredId !== selectedId ? byId.get(state.hoveredId) ?? null : null;
  // Kept by value: the legend hydrates later, and a new array would reach its boundary before then.
  const legendGroups = useMemo(() => doc.groups.filter((group) => group.legend), [doc.groups]);
  const canFullscreen = useBrowserFact(fullscreenEnabled) && features.fullscreen;
  const mac = useBrowserFact(isMac);
  const showSidebar = features.sidebar;
  const directionsShown = route.open && directionsCode !== null;

  // Memoised: the directory's props must not change before it hydrates.
  const actions = useMemo(
    () => <ActionButtons controller={controller} shareOpen={shareOpen} directionsOpen={route.open} offered={directionsOffered} shareRef={shareToggleRef} directionsRef={directionsToggleRef} />,
    [controller, shareOpen, route.open, directionsOffered],
  );
  const pickFromDirectory = useCallback((id: string, opener: HTMLElement | null) => controller.open(id, narrow ? listToggleRef.current : opener, true), [controller, narrow]);

  const directory = (header: ReactNode) => (
    <LazyDirectory controller={controller} doc={doc} map={map} order={directoryOrder} matching={matching} query={query} activeGroups={activeGroups} selectedId={selectedId} onPick={pickFromDirectory} actions={header} />
  );
  const directionsPanel = directionsCode && <directionsCode.ViewerDirectionsPanel controller={controller} state={state} groupsById={groupsById} narrow={narrow} />;
  // A location's details (offering a route to it and from it).
  const details = (sheet: boolean) =>
    selected && (
      <Suspense fallback={null}>
        <Details controller={controller} location={selected} sheet={sheet} directions={directionsOffered} />
      </Suspense>
    );

  return (
    <div
      ref={rootRef}
      className={`mfv${showSidebar || (directionsShown && !narrow) ? ' mfv--sidebar' : ''}${directionsShown && narrow ? ' mfv--directions' : ''}${fullscreen ? ' mfv--fullscreen' : ''}`}
      data-theme={theme.mode}
      style={{ '--mf-accent': theme.accent, '--mf-map-bg': theme.background } as CSSProperties}
      onKeyDown={(event) => {
        if (!controller.keyDown(event.key)) return;
        event.preventDefault();
        event.stopPropagation();
      }}
    >
      {showSidebar && !narrow ? (
        <aside id="mf-directory" className="mf-sidebar" aria-label={t('viewer.directory')} hidden={directionsShown}>
          {directory(actions)}
        </aside>
      ) : null}
      {directionsShown && !narrow ? <aside className="mf-sidebar mf-sidebar--directions">{directionsPanel}</aside> : null}
      <main className="mf-stage">
        {layer ? (
          <MapRenderer
            ref={controller.attach}
            document={doc}
            layer={layer}
            camera={camera}
            selectedId={selectedId}
            visibleIds={visibleIds}
            cooperative={cooperative}
            describe={describe}
            label={doc.layers.length > 1 ? t('viewer.mapLayerLabel', { title: map.title, layer: layer.name }) : t('viewer.mapLabel', { title: map.title })}
            onSelect={controller.open}
            onHover={controller.hover}
            onBackgroundClick={controller.background}
            onHint={controller.hint}
            onReady={onLayerReady}
            staticFirst={serverRendered}
          >
            {/* The server's page on a phone, before (or without) its script: the directory follows the map below, and this bar leads there (hidden on wider screens). */}
            {serverRendered && showSidebar && !narrow ? <TopBar title={map.title} count={shown.length} search={false} sheetOpen={false} listRef={null} onList="#mf-directory" /> : null}
            {narrow || !showSidebar ? <TopBar title={map.title} count={shown.length} search={features.search} sheetOpen={sheetOpen} listRef={listToggleRef} onList={showSidebar ? () => controller.setSheet(true) : null} /> : null}
            {doc.layers.length > 1 ? <FloorSwitcher layers={doc.layers} layerId={layer.id} route={shownRoute} onPick={controller.setFloor} /> : null}
            <MapControls actions={!showSidebar || narrow ? actions : null} controller={controller} zoom={features.zoomButtons} fullscreen={fullscreen} onFullscreen={canFullscreen ? toggleFullscreen : null} />
            {directionsCode ? <directionsCode.MapDirections controller={controller} state={state} layerId={layer.id} narrow={narrow} rtl={dir === 'rtl'} offered={directionsOffered} /> : null}

            {shareOpen ? (
              <Suspense fallback={null}>
                <ShareMenu controller={controller} camera={camera} mapId={map.id} title={map.title} publicUrl={publicUrl} />
              </Suspense>
            ) : null}

            {map.test ? (
              <p className="mf-test-banner" role="note">
                <strong>{t('viewer.testMap')}</strong> {t('viewer.testMapNote')}
              </p>
            ) : null}

            <BottomBar doc={doc} legendGroups={legendGroups} narrowQuery={NARROW} serverRendered={serverRendered} minimap={features.minimap && !narrow} camera={camera} layer={layer} small={medium} publicUrl={publicUrl} />

            {hovered ? (
              <Suspense fallback={null}>
                <Tooltip view={controller.view} location={hovered} />
              </Suspense>
            ) : null}

            {narrow ? null : details(false)}

            <div className={`mf-hint${hint ? ' is-visible' : ''}`} aria-hidden="true">
              {hint === 'touch' ? t('viewer.hintTouch') : t('viewer.hintWheel', { key: mac ? '⌘' : t('viewer.ctrl') })}
            </div>
          </MapRenderer>
        ) : (
          <div className="mf-message">
            <p>{t('viewer.noLayers')}</p>
          </div>
        )}
      </main>

      {directionsShown && narrow ? <div className={`mf-directions-sheet${state.directionsFolded ? ' mf-directions-sheet--folded' : ''}`}>{directionsPanel}</div> : null}

      {narrow ? details(true) : null}

      {showSidebar && narrow && sheetOpen ? (
        <div className="mf-sheet" role="dialog" aria-modal="true" aria-label={t('viewer.directory')}>
          <button type="button" className="mf-sheet__scrim" aria-label={t('viewer.closeDirectory')} tabIndex={-1} onClick={() => controller.setSheet(false)} />
          <div className="mf-sheet__panel" tabIndex={-1} ref={sheetRef}>
            {directory(
              <button
                type="button"
                className="mf-icon-button"
                aria-label={t('viewer.closeDirectory')}
                onClick={() => {
                  controller.setSheet(false);
                  listToggleRef.current?.focus();
                }}
              >
                <Icon name="close" />
              </button>,
            )}
          </div>
        </div>
      ) : null}

      <div className={`mf-toast${toast ? ' is-visible' : ''}`} role="status" aria-live="polite">
        {toast}
      </div>
    </div>
  );
}
