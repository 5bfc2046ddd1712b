/**
 * How a cluster looks and what it says: its size by count, its count on the badge (short: "1.2K") and its accessible name ("1,234
 * locations, zoom in"), numbers through Intl in the page's language. The English words are kept
 * here together until the viewer's message catalogues take them (issue 19 part 1).
 */
const TEXT = {
  one: (count: string) => `${count} location`,
  other: (count: string) => `${count} locations`,
  zoomIn: 'zoom in',
};

const formats = new Map<string, { short: Intl.NumberFormat; long: Intl.NumberFormat; plural: Intl.PluralRules }>();

function formatsFor(locale: string | undefined) {
  const key = locale ?? '';
  let found = formats.get(key);
  if (!found) {
    let tag: string | undefined = locale;
    try {
      Intl.getCanonicalLocales(tag);
    } catch {
      tag = undefined;
    }
    found = {
      short: new Intl.NumberFormat(tag, { notation: 'compact', maximumFractionDigits: 1 }),
      long: new Intl.NumberFormat(tag),
      plural: new Intl.PluralRules(tag),
    };
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
  return formatsFor(locale).short.format(count);
}

/** "12 locations": a cluster's count in words. */
export function clusterCountText(count: number, locale = pageLocale()): string {
  const { long, plural } = formatsFor(locale);
  const number = long.format(count);
  return plural.select(count) === 'one' ? TEXT.one(number) : TEXT.other(number);
}

/** The cluster's button: "1,234 locations, zoom in". */
export function clusterLabel(count: number, locale = pageLocale()): string {
  return `${clusterCountText(count, locale)}, ${TEXT.zoomIn}`;
}

/** The badge's diameter in CSS pixels: larger with the count (by its order of magnitude). */
export function clusterDiameter(count: number): number {
  return Math.round(28 + 6.5 * Math.log10(Math.max(2, count)));
}
