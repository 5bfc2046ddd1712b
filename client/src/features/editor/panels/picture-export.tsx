/**
 * The Data panel's picture of the map: the view on the canvas or the whole floor shown, as PNG
 * (1× or 2×) or SVG, made in the browser by components/map/export (its code loads on the first
 * press); on a floor on a street basemap, the map's view on screen (MapLibre's) draws the
 * basemap again under it, as the viewer's share menu does. The buttons wait while it is made; the editor's toast says what was saved, or why not.
 * Its words are the editor's own English, but where the viewer's share menu says the same thing
 * (the formats, "What to include", a save, a failure) they come from the same messages (share.*),
 * and the picture's own words (its legend's title) from the translator it is given.
 */
import { useState } from 'react';
import { useTranslator } from '../../../i18n/i18n-context';
import type { MessageId } from '../../../i18n/message-ids';
import { saveBlob } from '../../../utils/save-blob';
import type { Camera } from '../../../components/map/camera';
import type { MapView } from '../../../components/map/map-view';
import type { MapDocument } from '../../../../../events/map-document';

type Format = 'png' | 'png@2x' | 'svg';

const loadExport = () => import('../../../components/map/export/export-picture');

export interface PictureExportProps {
  document: MapDocument;
  title: string;
  camera: Camera;
  layerId: string;
  /** The map's view on screen when the picture is made (a street basemap's is drawn again under it). */
  mapView?: () => MapView | null;
  onNotice: (message: string) => void;
}

const FORMATS: Array<{ format: Format; text: MessageId; hint: string }> = [
  { format: 'png', text: 'share.png', hint: 'For slides, documents and the web' },
  { format: 'png@2x', text: 'share.png2x', hint: 'Twice the pixels: sharp on high-resolution screens and in print' },
  { format: 'svg', text: 'share.svg', hint: 'Vector: opens and edits in Illustrator, Inkscape or Figma' },
];

export function PictureExport({ document: doc, title, camera, layerId, mapView, onNotice }: PictureExportProps) {
  const translator = useTranslator();
  const { t } = translator;
  const [extent, setExtent] = useState<'view' | 'floor'>('view');
  const [busy, setBusy] = useState<Format | null>(null);
  const layer = doc.layers.find((candidate) => candidate.id === layerId) ?? doc.layers[0];

  const run = async (format: Format) => {
    if (busy || !layer) return;
    setBusy(format);
    try {
      const { makePicture } = await loadExport();
      const view = { ...camera.view, width: camera.width, height: camera.height };
      const picture = await makePicture({ document: doc, layer, title, extent, view, mapView: mapView?.() ?? null, translator }, format);
      saveBlob(picture.fileName, picture.blob);
      const notes = [`${t('share.saved', { name: picture.fileName })} (${picture.width} × ${picture.height}).`];
      if (picture.missingFloor) notes.push('The floor plan could not be read: the picture shows a plain sheet.');
      if (picture.missingImages > 0) notes.push(`${picture.missingImages} thumbnail${picture.missingImages === 1 ? '' : 's'} from other sites left out (they do not allow copying).`);
      onNotice(notes.join(' '));
    } catch (error) {
      const reason = (error as { reason?: string }).reason;
      onNotice(
        reason === 'too-large'
          ? 'The picture would be too large for this browser: export the current view, or PNG at 1×.'
          : reason === 'tainted'
            ? 'The browser refused to save the PNG: a picture on the map comes from another site that does not allow copying it. Export SVG instead.'
            : t('share.failed'),
      );
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="ep-section" aria-labelledby="ep-io-picture" aria-busy={busy !== null} onPointerEnter={() => void loadExport()}>
      <h3 id="ep-io-picture" className="ep-section__title">
        Picture
      </h3>
      <fieldset className="ep-picture__extent">
        <legend className="ep-hint">
          {t('share.extent')}
          {layer && doc.layers.length > 1 ? ` (${layer.name})` : ''}</legend>
        <label>
          <input type="radio" name="ep-picture-extent" checked={extent === 'view'} onChange={() => setExtent('view')} /> The current view
        </label>
        <label>
          <input type="radio" name="ep-picture-extent" checked={extent === 'floor'} onChange={() => setExtent('floor')} /> The whole floor
        </label>
      </fieldset>
      <div className="ep-picture__formats">
        {FORMATS.map(({ format, text, hint }) => (
          <button key={format} type="button" className="ep-button" title={hint} aria-disabled={busy !== null || undefined} data-busy={busy === format ? '' : undefined} onClick={() => void run(format)}>
            {busy === format ? <span className="ep-picture__spinner" aria-hidden="true" /> : null}
            {t(text)}
          </button>
        ))}
      </div>
      <p className="ep-hint" aria-live="polite">
        {busy ? 'Preparing the picture…' : 'Markers, labels, region colours, the title and the legend, as visitors see them.'}
      </p>
    </section>
  );
}
