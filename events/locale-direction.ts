/**
 * The writing direction of the viewer's languages (events/locales.ts lists them): its own
 * module, as the viewer's first load reads it and nothing else of that list.
 */

/** The right-to-left ones among them. */
const RTL = new Set<string>(['ar']);

/** The writing direction of a locale's text (`<html dir>`). */
export function directionOf(locale: string): 'ltr' | 'rtl' {
  return RTL.has(locale) ? 'rtl' : 'ltr';
}
