/**
 * The viewer's language in React: a provider at the root of each page that shows the viewer
 * (viewer-main.tsx, viewer-server.tsx, the app), and `useT()` in its components.
 *
 * Without a provider, components read the fallback translator: English, registered by the app's
 * entry (main.tsx) and the tests' set-up. The viewer's own entry registers none, so its first
 * load carries no catalogue: the page brings the one it needs.
 */
import { createContext, useContext, type ReactNode } from 'react';
import type { Translator } from './translator';

const I18nContext = createContext<Translator | null>(null);
let fallback: Translator | null = null;

/** The translator components read outside any provider (the app's English). */
export function setFallbackTranslator(translator: Translator): void {
  fallback = translator;
}

export function I18nProvider({ translator, children }: { translator: Translator; children: ReactNode }) {
  return <I18nContext.Provider value={translator}>{children}</I18nContext.Provider>;
}

/** The translator of the page's language. */
export function useTranslator(): Translator {
  const translator = useContext(I18nContext) ?? fallback;
  // (No provider and no fallback registered: a page that forgot <I18nProvider>.)
  if (!translator) throw new Error('No translator');
  return translator;
}
