/**
 * A location's details: a dialog beside its marker (a bottom sheet on phones) that takes the
 * focus when it opens. The rich description is sanitised with DOMPurify before it is shown;
 * its links open in a new tab without access to this page.
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { openRichTextLink, RICH_TEXT_CONFIG } from '../../../../events/rich-text';
import type { ScreenProjection } from '../../components/map/map-view';
import type { Group, Location, MapPoint } from '../../components/map/types';
import { loadPurifier } from '../../lib/purifier';
import { useTranslator } from '../../i18n/i18n-context';
import { Icon } from './icons';
import { useAnchored } from './use-anchored';
import type { ViewerController } from './controller/viewer-controller';
import { MARKER_HEIGHT } from './marker-height';
import { loadNearCode, needsDrawnProjections } from './store-locator/load-near-code';

let linkHookAdded = false;

/**
 * The description as safe HTML: the rich text the server keeps (events/rich-text.ts), checked
 * again here; links open in a new tab.
 */
export async function sanitizeDescription(html: string): Promise<string> {
  const purify = await loadPurifier();
  if (!linkHookAdded) {
    linkHookAdded = true;
    purify.addHook('afterSanitizeAttributes', openRichTextLink);
  }
  return purify.sanitize(html, RICH_TEXT_CONFIG);
}

export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** The link's site ("example.com"), or `fallback` when it has none. */
function hostOf(url: string, fallback: string): string {
  try {
    return new URL(url, window.location.href).hostname.replace(/^www\./, '') || fallback;
  } catch {
    return fallback;
  }
}

export interface PopupProps {
  location: Location;
  groups: Group[];
  /** The layer's name, when the map has more than one. */
  layerName: string | null;
  /** Where the map shows its points (the map view's; none yet: the popup waits). */
  screen: ScreenProjection | null | undefined;
  anchor: MapPoint | null;
  /** How far above the anchor the popup sits (the marker's height). */
  offset: number;
  /** A bottom sheet instead of a popup beside the marker (phones). */
  sheet: boolean;
  onClose: () => void;
  /** Directions to this location (maps that offer directions). */
  onDirectionsTo?: ((id: string) => void) | undefined;
  /** Directions from this location (not in a kiosk: its start is fixed). */
  onDirectionsFrom?: ((id: string) => void) | undefined;
  /** Directions in the visitor's own maps app (a location on a geographic floor). */
  mapsHref?: string | null | undefined;
}

export function Popup({ location, groups, layerName, screen, anchor, offset, sheet, onClose, onDirectionsTo, onDirectionsFrom, mapsHref }: PopupProps) {
  const { t } = useTranslator();
  const ref = useRef<HTMLDivElement>(null);
  const [description, setDescription] = useState<string | null>(null);
  useAnchored(screen, anchor, ref, offset, !sheet);

  useEffect(() => {
    setDescription(null);
    if (!location.description.trim()) return;
    let cancelled = false;
    void sanitizeDescription(location.description).then((html) => {
      if (!cancelled) setDescription(html);
    });
    return () => {
      cancelled = true;
    };
  }, [location.description]);

  // The dialog takes the focus when it opens, and when it shows another location.
  useLayoutEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, [location.id]);

  const titleId = `mf-popup-title-${location.id}`;
  return (
    <div
      ref={ref}
      className={`mf-popup${sheet ? ' mf-popup--sheet' : ''}`}
      role="dialog"
      aria-modal="false"
      aria-labelledby={titleId}
      tabIndex={-1}
      data-mf-ui=""
    >
      <button type="button" className="mf-popup__close" aria-label={t('viewer.close')} onClick={onClose}>
        <Icon name="close" size={16} />
      </button>
      {location.image ? <img className="mf-popup__image" src={location.image} alt="" loading="lazy" /> : null}
      <div className="mf-popup__body">
        {groups.length > 0 || layerName ? (
          <p className="mf-popup__meta">
            {groups.map((group) => (
              <span key={group.id} className="mf-tag" style={{ ['--mf-tag' as string]: group.color }}>
                {group.name}
              </span>
            ))}
            {layerName ? <span className="mf-popup__layer">{layerName}</span> : null}
          </p>
        ) : null}
        <h2 id={titleId} className="mf-popup__title">
          {location.title}
        </h2>
        {location.about ? <p className="mf-popup__about">{location.about}</p> : null}
        {description ? <div className="mf-popup__description" dangerouslySetInnerHTML={{ __html: description }} /> : null}
        {location.hours || location.phone || location.link ? (
          <ul className="mf-popup__facts">
            {location.hours ? (
              <li>
                <Icon name="clock" size={16} />
                <span>
                  <span className="mf-visually-hidden">{`${t('viewer.hours')} `}</span>
                  {location.hours}
                </span>
              </li>
            ) : null}
            {location.phone ? (
              <li>
                <Icon name="phone" size={16} />
                <a href={telHref(location.phone)}>{location.phone}</a>
              </li>
            ) : null}
            {location.link ? (
              <li>
                <Icon name="link" size={16} />
                <a href={location.link} target="_blank" rel="noopener noreferrer">
                  {hostOf(location.link, t('viewer.website'))}
                  <span className="mf-visually-hidden">{` ${t('viewer.newTab')}`}</span>
                </a>
              </li>
            ) : null}
          </ul>
        ) : null}
        {onDirectionsTo || onDirectionsFrom || mapsHref ? (
          <div className="mf-popup__actions">
            {mapsHref ? (
              <a className="mf-button mf-button--primary" href={mapsHref} target="_blank" rel="noopener noreferrer">
                <Icon name="directions" size={16} />
                {t('viewer.openDirections')}
                <span className="mf-visually-hidden">{` ${t('viewer.inMapsApp')}`}</span>
              </a>
            ) : null}
            {onDirectionsTo ? (
              <button type="button" className="mf-button mf-button--primary" onClick={() => onDirectionsTo(location.id)}>
                <Icon name="directions" size={16} />
                {t('viewer.directionsTo')}
              </button>
            ) : null}
            {onDirectionsFrom ? (
              <button type="button" className="mf-button" onClick={() => onDirectionsFrom(location.id)}>
                {t('viewer.directionsFrom')}
              </button>
            ) : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}

/**
 * The viewer's selected location in its popup (beside its marker, or a sheet on a phone), read
 * from the viewer's controller: its groups and floor's name, where it sits, closing it, and
 * directions to and from it when the map offers them (a kiosk's start is fixed: no "from").
 */
export function LocationDetails({ controller, location, sheet, directions }: { controller: ViewerController; location: Location; sheet: boolean; directions: boolean }) {
  const { doc, close } = controller;
  // On a geographic floor, directions in the visitor's maps app (the store locator's code, store-locator/load-near-code.ts).
  const geographic = Boolean(doc.layers.find((layer) => layer.id === location.layer)?.geo);
  const [mapsHref, setMapsHref] = useState<string | null>(null);
  useEffect(() => {
    setMapsHref(null);
    if (!geographic) return;
    let cancelled = false;
    void loadNearCode(needsDrawnProjections(controller.doc)).then((code) => {
      const place = code.placeOfLocation(controller.doc)(location);
      if (!cancelled) setMapsHref(place ? code.directionsHref(place) : null);
    });
    return () => {
      cancelled = true;
    };
  }, [geographic, controller, location]);
  const groupsById = new Map(doc.groups.map((group) => [group.id, group]));
  const openDirections = (ends: { from?: string; to?: string }) => {
    close();
    controller.openDirections(ends);
  };
  return (
    <Popup
      location={location}
      groups={location.groups.map((id) => groupsById.get(id)).filter((group) => group !== undefined)}
      layerName={doc.layers.length > 1 ? doc.layers.find((layer) => layer.id === location.layer)?.name ?? null : null}
      screen={controller.view?.screen}
      anchor={sheet ? null : controller.view?.anchorOf(location.id) ?? location.position}
      offset={sheet ? 0 : MARKER_HEIGHT[location.marker]}
      sheet={sheet}
      onClose={close}
      onDirectionsTo={directions ? (id) => openDirections({ to: id }) : undefined}
      onDirectionsFrom={directions && !controller.getSnapshot().here ? (id) => openDirections({ from: id }) : undefined}
      mapsHref={mapsHref}
    />
  );
}
