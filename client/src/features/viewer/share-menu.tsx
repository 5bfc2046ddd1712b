/**
 * Share: the map's link and the embed snippet, each with a copy button, and a picture of the
 * map to save or print (share-picture.tsx). Copying and saving say so in a toast (through
 * `onCopied`).
 */
import { useEffect, useRef } from 'react';
import { copyText } from '../../lib/clipboard';
import { embedSnippet, viewerUrl } from '../../utils/embed';
import { routeUrl } from './directions/directions-link';
import { SharePicture, type PictureSource } from './share-picture';

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

export function ShareMenu({ mapId, title, publicUrl, aspectRatio, onCopied, onClose, route = null, picture = null }: ShareMenuProps) {
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

  const copy = async (text: string, what: string) => {
    onCopied((await copyText(text)) ? `${what} copied to the clipboard` : `Could not copy; select the ${what.toLowerCase()} and copy it`);
  };

  return (
    <div ref={ref} className="mf-share" role="dialog" aria-label="Share this map" data-mf-ui="">
      <h2 className="mf-share__title">Share this map</h2>
      <label className="mf-share__label" htmlFor="mf-share-link">
        Link
      </label>
      <div className="mf-share__row">
        <input id="mf-share-link" className="mf-share__field" readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" className="mf-button mf-button--primary" onClick={() => void copy(link, 'Link')}>
          Copy
        </button>
      </div>
      {routeLink ? (
        <>
          <label className="mf-share__label" htmlFor="mf-share-route">
            Link to this route
          </label>
          <div className="mf-share__row">
            <input id="mf-share-route" className="mf-share__field" readOnly value={routeLink} onFocus={(event) => event.currentTarget.select()} />
            <button type="button" className="mf-button mf-button--primary" aria-label="Copy the route link" onClick={() => void copy(routeLink, 'Route link')}>
              Copy
            </button>
          </div>
        </>
      ) : null}
      <label className="mf-share__label" htmlFor="mf-share-embed">
        Embed on your website
      </label>
      <textarea id="mf-share-embed" className="mf-share__field mf-share__code" readOnly rows={4} value={snippet} onFocus={(event) => event.currentTarget.select()} />
      <div className="mf-share__foot">
        <p className="mf-share__hint">Paste it into any page; the map keeps its proportions at any width.</p>
        <button type="button" className="mf-button mf-button--primary" onClick={() => void copy(snippet, 'Embed code')}>
          Copy code
        </button>
      </div>
      {picture ? <SharePicture source={picture} title={title} link={viewerUrl(publicUrl, mapId, picture.selectedId ?? undefined)} onNotice={onCopied} /> : null}
    </div>
  );
}
