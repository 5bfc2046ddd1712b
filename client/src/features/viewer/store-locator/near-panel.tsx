/**
 * The store locator's control in the directory (issue 29 item 4), on maps with a geographic
 * floor: "Find the nearest" a town or postcode, or the visitor's own position; then "Near
 * Denver, CO" with a way to change it, and a radius in the visitor's unit (miles or kilometres
 * by the viewer's language, events/nearest.ts). Its code is a chunk of its own (this module and
 * what it exports, load-near-code.ts): the directory loads it only on such maps, with the code that
 * sorts by distance, and the server renders it into their page, hydrated when that code arrives
 * (viewer-directory.tsx); the directions' route finding is not in it (a street map fetched it
 * with the store locator, 15 KB gzipped, though most visitors never ask for directions). Its
 * styles (near-panel.css) come with the page's, so the server's markup is styled at once.
 */
import { useId, useMemo, useState } from 'react';
import { distanceUnit, formatDistance, RADIUS_CHOICES, radiusInKm, type DistanceUnit } from '../../../../../events/nearest';
import { useTranslator } from '../../../i18n/i18n-context';
import type { ViewerController } from '../controller/viewer-controller';
import { Icon } from '../icons';
import { clearNear, placeFinder, searchNear, setRadius, useMyPosition as askMyPosition, type NearState } from './near-commands';

export { distanceUnit, formatDistance };
export { directionsHref, nearestLocations, placeOfLocation, setDrawnProjections } from './near-commands';

export interface NearPanelProps {
  controller: ViewerController;
  mapId: string;
  near: NearState | undefined;
  unit: DistanceUnit;
  /** How many locations are listed now (within the radius, through the filters). */
  count: number;
}

export function NearPanel({ controller, mapId, near, unit, count }: NearPanelProps) {
  const { t, locale } = useTranslator();
  const [text, setText] = useState(near?.query ?? '');
  const find = useMemo(() => placeFinder(mapId), [mapId]);
  const id = useId();
  const busy = near?.status === 'searching' || near?.status === 'locating';
  const radiusLabel = (value: number) => formatDistance(radiusInKm(value, unit), unit, locale);

  if (near?.origin && near.status === 'ready') {
    return (
      <div className="mf-near mf-near--found" role="group" aria-label={t('viewer.nearHeading')}>
        <p className="mf-near__origin">
          <Icon name="pin" size={16} />
          <span>{near.origin.label ? t('viewer.nearPlace', { place: near.origin.label }) : t('viewer.nearYou')}</span>
          <button type="button" className="mf-near__change" onClick={() => clearNear(controller)}>
            {t('viewer.nearChange')}
          </button>
        </p>
        <p className="mf-near__radius">
          <label htmlFor={`${id}-radius`}>{t('viewer.nearWithin')}</label>
          <select id={`${id}-radius`} value={near.radius ?? ''} onChange={(event) => setRadius(controller, event.target.value ? Number(event.target.value) : null, unit)}>
            <option value="">{t('viewer.nearAnyDistance')}</option>
            {RADIUS_CHOICES[unit].map((value) => (
              <option key={value} value={value}>
                {radiusLabel(value)}
              </option>
            ))}
          </select>
          <span className="mf-near__count" aria-live="polite">
            {near.radius === null ? t('viewer.nearCount', { count }) : t('viewer.nearCountWithin', { count, distance: radiusLabel(near.radius) })}
          </span>
        </p>
      </div>
    );
  }

  const message =
    near?.status === 'searching'
      ? t('viewer.nearSearching')
      : near?.status === 'locating'
        ? t('viewer.nearLocating')
        : near?.error === 'notFound'
          ? t('viewer.nearNotFound', { query: near.query })
          : near?.error === 'denied'
            ? t('viewer.nearDenied')
            : near?.error === 'unavailable'
              ? t('viewer.nearUnavailable')
              : near?.error === 'failed'
                ? t('viewer.nearFailed')
                : null;
  return (
    <form
      className="mf-near"
      role="search"
      aria-label={t('viewer.nearHeading')}
      onSubmit={(event) => {
        event.preventDefault();
        void searchNear(controller, text, find);
      }}
    >
      <label className="mf-near__label" htmlFor={`${id}-place`}>
        {t('viewer.nearHeading')}
      </label>
      <div className="mf-near__row">
        <input
          id={`${id}-place`}
          className="mf-near__input"
          type="text"
          inputMode="search"
          enterKeyHint="search"
          placeholder={t('viewer.nearPlaceholder')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          autoComplete="postal-code"
          spellCheck={false}
        />
        <button type="submit" className="mf-button mf-button--primary" disabled={busy || !text.trim()}>
          {t('viewer.nearSearch')}
        </button>
      </div>
      <button type="button" className="mf-near__me" disabled={busy} onClick={() => void askMyPosition(controller)}>
        <Icon name="directions" size={16} />
        {t('viewer.nearUseMyLocation')}
      </button>
      <p className={`mf-near__message${near?.status === 'error' ? ' is-error' : ''}`} role="status" aria-live="polite">
        {message}
      </p>
    </form>
  );
}
