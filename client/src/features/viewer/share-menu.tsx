/**
 * Share: the map's link and the embed snippet, each with a copy button, and a picture of the
 * map to save or print (share-picture.tsx). Copying and saving say so in a toast (through
 * `onCopied`).
 */
import { useEffect, useRef } from 'react';
import { useTranslator } from '../../i18n/i18n-context';
import { copyText } from '../../lib/clipboard';
import { embedSnippet, viewerUrl } from '../../utils/embed';
import { routeUrl } from './directions/directions-link';
import { SharePicture, type PictureSource } from './share-picture';
import type { Camera } from '../../components/map/camera';
import type { ViewerController } from './controller/viewer-controller';

export interface ShareMenuProps {
  mapId: string;
  title: string;
  publicUrl: string;
  aspectRatio: number;
  onCopied: (message: string) => void;
  onClose: () => void;
  /** The route the directions show, when one is shown: its address can be copied (`?from=&to=`). */
  route?: { from: string; to: string; stepFree: boolean } | null;
  /** The map as it is on screen, for its picture (none: no picture is offered). */
  picture?: PictureSource | null;
}

/** What a copy button copies: the toast names it (share.{what}Copied, share.{what}NotCopied). */
type Copied = 'link' | 'route' | 'code';

export function ShareMenu({ mapId, title, publicUrl, aspectRatio, onCopied, onClose, route = null, picture = null }: ShareMenuProps) {
  const { t } = useTranslator();
  const ref = useRef<HTMLDivElement>(null);
  const link = viewerUrl(publicUrl, mapId);
  const routeLink = route ? routeUrl(link, route) : null;
  const snippet = embedSnippet({ mapId, publicUrl, title, aspectRatio });

  // The viewer hands a new onClose each render (a toast after a download is one): read it from a
  // ref, so the menu takes the focus when it opens and never again while it is open.
  const closeRef = useRef(onClose);
  closeRef.current = onClose;
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('input, textarea')?.focus();
    const onPointerDown = (event: PointerEvent) => {
      const target = event.target as Element;
      if (!ref.current?.contains(target) && !target.closest?.('[data-mf-share-toggle]')) closeRef.current();
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, []);

  const copy = async (text: string, what: Copied) => {
    onCopied((await copyText(text)) ? t(`share.${what}Copied`) : t(`share.${what}NotCopied`));
  };

  return (
    <div ref={ref} className="mf-share" role="dialog" aria-label={t('share.title')} data-mf-ui="">
      <h2 className="mf-share__title">{t('share.title')}</h2>
      <label className="mf-share__label" htmlFor="mf-share-link">
        {t('share.link')}
      </label>
      <div className="mf-share__row">
        <input id="mf-share-link" className="mf-share__field" readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" className="mf-button mf-button--primary" onClick={() => void copy(link, 'link')}>
          {t('share.copy')}
        </button>
      </div>
      {routeLink ? (
        <>
          <label className="mf-share__label" htmlFor="mf-share-route">
            {t('share.routeLink')}
          </label>
          <div className="mf-share__row">
            <input id="mf-share-route" className="mf-share__field" readOnly value={routeLink} onFocus={(event) => event.currentTarget.select()} />
            <button type="button" className="mf-button mf-button--primary" aria-label={t('share.copyRoute')} onClick={() => void copy(routeLink, 'route')}>
              {t('share.copy')}
            </button>
          </div>
        </>
      ) : null}
      <label className="mf-share__label" htmlFor="mf-share-embed">
        {t('share.embed')}
      </label>
      <textarea id="mf-share-embed" className="mf-share__field mf-share__code" readOnly rows={4} value={snippet} onFocus={(event) => event.currentTarget.select()} />
      <div className="mf-share__foot">
        <p className="mf-share__hint">{t('share.embedHint')}</p>
        <button type="button" className="mf-button mf-button--primary" onClick={() => void copy(snippet, 'code')}>
          {t('share.copyCode')}
        </button>
      </div>
      {picture ? <SharePicture source={picture} title={title} link={viewerUrl(publicUrl, mapId, picture.selectedId ?? undefined)} onNotice={onCopied} /> : null}
    </div>
  );
}

/**
 * The viewer's share menu, read from its controller (controller/viewer-controller.ts): the
 * floor's proportions, the route shown (not a kiosk's, whose start is the kiosk), the picture of
 * what is on screen; closing it and the toast are the controller's.
 */
export function ViewerShareMenu({ controller, camera, mapId, title, publicUrl }: { controller: ViewerController; camera: Camera; mapId: string; title: string; publicUrl: string }) {
  const { doc, layer, shownRoute, visibleIds } = controller;
  const { route, here, selectedId } = controller.getSnapshot();
  if (!layer) return null;
  const { size } = doc.settings;
  return (
    <ShareMenu
      mapId={mapId}
      title={title}
      publicUrl={publicUrl}
      aspectRatio={(layer.file?.width ?? size.width) / (layer.file?.height ?? size.height)}
      onCopied={controller.toast}
      onClose={() => controller.setShare(false)}
      route={shownRoute && route.from && route.to && !here ? { from: route.from, to: route.to, stepFree: route.stepFree } : null}
      picture={{ document: doc, layer, camera, selectedId, visibleIds, mapView: controller.view, layerNames: doc.layers.length > 1 ? new Map(doc.layers.map((candidate) => [candidate.id, candidate.name])) : null }}
    />
  );
}
