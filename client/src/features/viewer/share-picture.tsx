/**
 * The share menu's picture of the map: this view or the whole floor, saved as PNG (1× or 2×)
 * or SVG, or printed. The picture is made in the browser by components/map/export, whose code
 * loads on the first press (or when the pointer comes near): nothing of it is in the viewer's
 * first load. While it is made the buttons wait and the pressed one says so; a failure says why
 * in the viewer's toast.
 */
import { useId, useState } from 'react';
import { useTranslator } from '../../i18n/i18n-context';
import type { MessageId } from '../../i18n/message-ids';
import { saveBlob } from '../../utils/save-blob';
import type { Camera } from '../../components/map/camera';
import type { MapView } from '../../components/map/map-view';
import type { Layer, MapDocument } from '../../components/map/types';
import './share-picture.css';

/** What a picture is made of: the map as the viewer shows it now. */
export interface PictureSource {
  document: MapDocument;
  layer: Layer;
  camera: Camera;
  selectedId: string | null;
  visibleIds: ReadonlySet<string> | null;
  /** The floors' names, when the map has more than one. */
  layerNames: ReadonlyMap<string, string> | null;
  /** The map view on screen: a street basemap's is drawn again under the picture. */
  mapView?: MapView | null;
}

type Format = 'png' | 'png@2x' | 'svg' | 'print';

const loadExport = () => import('../../components/map/export/export-picture');
const loadPrint = () => import('../../components/map/export/print-sheet');

export interface SharePictureProps {
  source: PictureSource;
  title: string;
  /** The map's address (the selected location's, when one is open): printed on the page. */
  link: string;
  onNotice: (message: string) => void;
}

export function SharePicture({ source, title, link, onNotice }: SharePictureProps) {
  const translator = useTranslator();
  const { t } = translator;
  const [extent, setExtent] = useState<'view' | 'floor'>('view');
  const [busy, setBusy] = useState<Format | null>(null);
  const name = useId();

  const request = () => {
    const { camera } = source;
    return {
      document: source.document,
      layer: source.layer,
      title,
      extent,
      view: { ...camera.view, width: camera.width, height: camera.height },
      selectedId: source.selectedId,
      visibleIds: source.visibleIds,
      mapView: source.mapView ?? null,
      // The picture's own words (its legend's title) and its language and direction.
      translator,
    };
  };

  const run = async (format: Format) => {
    if (busy) return;
    setBusy(format);
    try {
      if (format === 'print') {
        const { printMap } = await loadPrint();
        await printMap({ ...request(), link, layerNames: source.layerNames });
        return;
      }
      const { makePicture } = await loadExport();
      const picture = await makePicture(request(), format);
      saveBlob(picture.fileName, picture.blob);
      const notes = [t('share.saved', { name: picture.fileName })];
      if (picture.missingFloor) notes.push(t('share.missingFloor'));
      if (picture.missingImages > 0) notes.push(t('share.missingImages', { count: picture.missingImages }));
      onNotice(notes.join(' '));
    } catch (error) {
      const reason = (error as { reason?: string }).reason;
      onNotice(t(reason === 'too-large' ? 'share.tooLarge' : reason === 'tainted' ? 'share.tainted' : 'share.failed'));
    } finally {
      setBusy(null);
    }
  };

  const button = (format: Format, text: MessageId, label: MessageId, icon: 'download' | 'print') => (
    <button
      type="button"
      className="mf-button mf-picture__button"
      title={t(label)}
      aria-disabled={busy !== null || undefined}
      data-busy={busy === format ? '' : undefined}
      onClick={() => void run(format)}
    >
      {busy === format ? <span className="mf-picture__spinner" aria-hidden="true" /> : <PictureIcon name={icon} />}
      <span>{t(text)}</span>
    </button>
  );

  return (
    <section className="mf-picture" aria-labelledby={`${name}-heading`} aria-busy={busy !== null} onPointerEnter={() => void loadExport()}>
      <h3 id={`${name}-heading`} className="mf-share__label">
        {t('share.picture')}
      </h3>
      <div className="mf-picture__extent" role="radiogroup" aria-label={t('share.extent')}>
        {(['view', 'floor'] as const).map((value) => (
          <label key={value} className="mf-picture__choice">
            <input type="radio" name={`${name}-extent`} value={value} checked={extent === value} onChange={() => setExtent(value)} />
            <span>{t(value === 'view' ? 'share.view' : 'share.floor')}</span>
          </label>
        ))}
      </div>
      <div className="mf-picture__actions">
        {button('png', 'share.png', 'share.pngLabel', 'download')}
        {button('png@2x', 'share.png2x', 'share.png2xLabel', 'download')}
        {button('svg', 'share.svg', 'share.svgLabel', 'download')}
        {button('print', 'share.print', 'share.printLabel', 'print')}
      </div>
      {/* Announced politely; not a second role="status" beside the viewer's toast, which says the outcome. */}
      <p className="mf-share__hint mf-picture__status" aria-live="polite">
        {busy ? t('share.working') : null}
      </p>
    </section>
  );
}

const ICONS = {
  download: 'M12 4v11M7 10l5 5 5-5M5 20h14',
  print: 'M7 9V3h10v6M7 17H5a2 2 0 0 1-2-2v-4a2 2 0 0 1 2-2h14a2 2 0 0 1 2 2v4a2 2 0 0 1-2 2h-2M7 14h10v7H7z',
} as const;

function PictureIcon({ name }: { name: keyof typeof ICONS }) {
  return (
    <svg className="mf-icon" width={16} height={16} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={ICONS[name]} />
    </svg>
  );
}
