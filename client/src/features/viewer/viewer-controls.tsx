/**
 * What the viewer lays over the map (viewer.tsx): the top bar on a phone (or without the
 * sidebar), the floor switcher, the zoom, share, directions and full-screen buttons, and the
 * bottom row with the legend, the minimap and the credit. They show the controller's state and
 * call its commands; the zoom buttons follow the map view's limits themselves.
 */
import { useEffect, useMemo, useState, type ReactNode, type Ref } from 'react';
import type { Route } from '../../../../events/wayfinding/route-types';
import type { Camera } from '../../components/map/camera';
import type { Group, Layer, MapDocument } from '../../components/map/types';
import { useTranslator } from '../../i18n/i18n-context';
import type { ViewerController } from './controller/viewer-controller';
import { Icon } from './icons';
import { LazyLegend, LazyMinimap } from './viewer-parts';

/**
 * The map's title and count; on a phone, the button that opens the directory, or (`onList` an
 * address: the server's page before its script) the link that leads down to it.
 */
export function TopBar({ title, count, search, sheetOpen, listRef, onList }: { title: string; count: number; search: boolean; sheetOpen: boolean; listRef: Ref<HTMLButtonElement>; onList: (() => void) | string | null }) {
  const { t } = useTranslator();
  const text = (
    <>
      <Icon name={search ? 'search' : 'list'} />
      <span className="mf-topbar__text">
        <strong>{title}</strong>
        <span>{t(search ? 'viewer.searchCount' : 'viewer.locationCount', { count })}</span>
      </span>
    </>
  );
  return (
    <div className={typeof onList === 'string' ? 'mf-topbar mf-topbar--jump' : 'mf-topbar'} data-mf-ui="">
      {typeof onList === 'string' ? (
        <a className="mf-topbar__list" href={onList}>
          {text}
        </a>
      ) : onList ? (
        <button ref={listRef} type="button" className="mf-topbar__list" aria-expanded={sheetOpen} onClick={onList}>
          {text}
        </button>
      ) : (
        <p className="mf-topbar__title">{title}</p>
      )}
    </div>
  );
}

/** The floors, the ones a route passes marked. */
export function FloorSwitcher({ layers, layerId, route, onPick }: { layers: readonly Layer[]; layerId: string; route: Route | null; onPick: (id: string) => void }) {
  const { t } = useTranslator();
  const onRoute = useMemo(() => new Set(route?.legs.map((leg) => leg.layer)), [route]);
  return (
    <div className="mf-layers" role="group" aria-label={t('viewer.layers')} data-mf-ui="">
      {layers.map((candidate) => (
        <button key={candidate.id} type="button" aria-pressed={candidate.id === layerId} data-route={onRoute.has(candidate.id) ? '' : undefined} aria-label={onRoute.has(candidate.id) ? t('viewer.onRoute', { layer: candidate.name }) : undefined} onClick={() => onPick(candidate.id)}>
          {candidate.name}
        </button>
      ))}
    </div>
  );
}

/**
 * Zoom in, out and home (through the map's view); each knows when its limit is reached, read
 * from the view's projection on each of its frames (the view on screen: the viewer renders
 * again once a floor's view is drawn, MapView's `ready`). Disabled until a floor is drawn: the
 * server's page shows them before any script, and a street map's MapLibre loads after the page
 * is hydrated; a press then did nothing (or was undone as the map took its first view).
 */
function ZoomButtons({ controller }: { controller: ViewerController }) {
  const { t } = useTranslator();
  const [limits, setLimits] = useState({ canIn: true, canOut: false });
  const drawn = controller.viewDrawn;
  const screen = controller.view?.screen;
  useEffect(() => {
    if (!screen) return;
    const follow = () => {
      const canIn = screen.canZoomIn ?? true;
      const canOut = screen.canZoomOut ?? true;
      setLimits((before) => (before.canIn === canIn && before.canOut === canOut ? before : { canIn, canOut }));
    };
    follow();
    return screen.onFrame(follow);
  }, [screen]);
  return (
    <div className="mf-controls__group" role="group" aria-label={t('viewer.zoom')}>
      <button type="button" className="mf-icon-button" aria-label={t('viewer.zoomIn')} disabled={!drawn || !limits.canIn} onClick={() => controller.view?.zoomBy(1.6)}>
        <Icon name="plus" />
      </button>
      <button type="button" className="mf-icon-button" aria-label={t('viewer.zoomOut')} disabled={!drawn || !limits.canOut} onClick={() => controller.view?.zoomBy(1 / 1.6)}>
        <Icon name="minus" />
      </button>
      <button type="button" className="mf-icon-button" aria-label={t('viewer.resetView')} disabled={!drawn} onClick={() => controller.view?.resetView()}>
        <Icon name="reset" />
      </button>
    </div>
  );
}

/** The buttons over the map's corner: directions and share (without the sidebar), zoom, full screen. */
export function MapControls({ actions, controller, zoom, fullscreen, onFullscreen }: { actions: ReactNode; controller: ViewerController; zoom: boolean; fullscreen: boolean; onFullscreen: (() => void) | null }) {
  const { t } = useTranslator();
  return (
    <div className="mf-controls" data-mf-ui="">
      {actions ? <div className="mf-controls__group">{actions}</div> : null}
      {zoom ? <ZoomButtons controller={controller} /> : null}
      {onFullscreen ? (
        <div className="mf-controls__group">
          <button type="button" className="mf-icon-button" aria-label={t(fullscreen ? 'viewer.exitFullScreen' : 'viewer.fullScreen')} aria-pressed={fullscreen} onClick={onFullscreen}>
            <Icon name={fullscreen ? 'shrink' : 'expand'} />
          </button>
        </div>
      ) : null}
    </div>
  );
}

/** The share and directions buttons, in the directory's header or over the map. */
export function ActionButtons({ controller, shareOpen, directionsOpen, offered, shareRef, directionsRef }: { controller: ViewerController; shareOpen: boolean; directionsOpen: boolean; offered: boolean; shareRef: Ref<HTMLButtonElement>; directionsRef: Ref<HTMLButtonElement> }) {
  const { t } = useTranslator();
  return (
    <>
      {offered ? (
        <button
          ref={directionsRef}
          type="button"
          className="mf-icon-button mf-directions-toggle"
          aria-label={t('viewer.directions')}
          title={t('viewer.directions')}
          aria-expanded={directionsOpen}
          onClick={() => (directionsOpen ? controller.closeDirections() : controller.openDirections())}
        >
          <Icon name="directions" />
        </button>
      ) : null}
      <button ref={shareRef} type="button" className="mf-icon-button" aria-label={t('viewer.share')} aria-expanded={shareOpen} data-mf-share-toggle="" onClick={() => controller.setShare(!shareOpen)}>
        <Icon name="share" />
      </button>
    </>
  );
}

/** The legend, the minimap and the credit, along the map's bottom edge. */
export function BottomBar({ doc, legendGroups, narrowQuery, serverRendered, minimap, camera, layer, small, publicUrl }: { doc: MapDocument; legendGroups: readonly Group[]; narrowQuery: string; serverRendered: boolean; minimap: boolean; camera: Camera; layer: Layer; small: boolean; publicUrl: string }) {
  const { features, theme } = doc.settings;
  return (
    <div className="mf-bottom" data-mf-ui="">
      {legendGroups.length > 0 ? (
        // The legend starts open unless the sidebar's filter chips show the groups' colours already
        // (or the screen is small, legend.tsx); it is a toggle either way.
        <LazyLegend groups={legendGroups} open={!(features.sidebar && features.filters)} narrow={narrowQuery} serverRendered={serverRendered} />
      ) : (
        <span />
      )}
      <div className="mf-bottom__right">
        {minimap ? <LazyMinimap camera={camera} layer={layer} width={layer.file?.width ?? doc.settings.size.width} height={layer.file?.height ?? doc.settings.size.height} background={theme.background} small={small} /> : null}
        <a className="mf-credit" href={publicUrl} target="_blank" rel="noopener noreferrer">
          Mapfold
        </a>
      </div>
    </div>
  );
}
