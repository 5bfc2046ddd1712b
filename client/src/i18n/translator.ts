/**
 * A translator: one language's compiled catalogue with the functions that read it. The
 * viewer takes its words from one (i18n-context.tsx); the editor and the rest of the app read
 * the English one where they share the viewer's components (issue 19).
 */
import { directionOf } from '../../../events/locale-direction';
import type { ViewerLocale } from '../../../events/locales';
import { formatMessage, formatNumber, type CompiledMessage, type MessageValues } from './format-message';
import type { MessageId } from './message-ids';

/** What the build makes of one language's sources (scripts/viewer-messages.ts). */
export type CompiledCatalogue = Readonly<Record<string, CompiledMessage>>;

export interface Translator {
  readonly locale: ViewerLocale;
  readonly dir: 'ltr' | 'rtl';
  /** The message `id` with `values` filled in. */
  t(id: MessageId, values?: MessageValues): string;
  /** A number as the locale writes it (grouping, digits). */
  n(value: number): string;
  /** The compiled catalogue, for a page that carries it to the browser (viewer-server.tsx). */
  readonly messages: CompiledCatalogue;
}

export function createTranslator(locale: ViewerLocale, messages: CompiledCatalogue): Translator {
  return {
    locale,
    dir: directionOf(locale),
    messages,
    // A missing id shows itself rather than nothing: the catalogue test keeps every id in every language.
    t: (id, values) => {
      const message = messages[id];
      return message === undefined ? id : formatMessage(locale, message, values);
    },
    n: (value) => formatNumber(locale, value),
  };
}
