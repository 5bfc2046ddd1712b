/**
 * How a cluster looks and what it says: its size by count, its count on the badge (short: "1.2K")
 * and its accessible name ("1,234 locations, zoom in"), numbers through Intl in the page's
 * language; the words are the catalogue's (`map.clusterCount`, `map.clusterLabel`), read through
 * the translator's `t` the caller passes.
 */
import type { Translator } from '../../i18n/translator';
import { formatNumber } from '../../i18n/format-message';

const formats = new Map<string, Intl.NumberFormat>();

/** The locale if Intl takes it, else undefined (the runtime's own). */
function validTag(locale: string | undefined): string | undefined {
  try {
    Intl.getCanonicalLocales(locale);
    return locale;
  } catch {
    return undefined;
  }
}

function compactFormat(locale: string | undefined) {
  const key = locale ?? '';
  let found = formats.get(key);
  if (!found) {
    found = new Intl.NumberFormat(validTag(locale), { notation: 'compact', maximumFractionDigits: 1 });
    formats.set(key, found);
  }
  return found;
}

/** The page's language (the server renders it into `<html lang>`), if any. */
export function pageLocale(): string | undefined {
  return (typeof document !== 'undefined' && document.documentElement.lang) || undefined;
}

/** The count on the badge: "12", "1.2K", "25K". */
export function clusterBadgeText(count: number, locale = pageLocale()): string {
  // Below a thousand the compact form is the plain number: the page's own number format says
  // it (made already for its words), and the compact one, whose first making takes about 8 ms,
  // is made only for a map with clusters of thousands.
  if (Number.isInteger(count) && count >= 0 && count < 1000) return formatNumber(validTag(locale), count);
  return compactFormat(locale).format(count);
}

/** "12 locations": a cluster's count in words. */
export function clusterCountText(count: number, t: Translator['t']): string {
  return t('map.clusterCount', { count });
}

/** The cluster's button: "1,234 locations, zoom in". */
export function clusterLabel(count: number, t: Translator['t']): string {
  return t('map.clusterLabel', { count });
}

/** The badge's diameter in CSS pixels: larger with the count (by its order of magnitude). */
export function clusterDiameter(count: number): number {
  return Math.round(28 + 6.5 * Math.log10(Math.max(2, count)));
}
