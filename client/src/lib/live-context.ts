/**
 * The context that carries the tab's live client to the pages (lib/live.tsx reads it). Apart
 * from live.tsx so that the app shell can provide it without loading the live client itself
 * (its protocol schemas), which comes with the first page that needs it.
 */
import { createContext } from 'react';
import type { LiveClient } from './live-client';

/** The tab's live client for the pages below; null outside a live connection (a page rendered on its own). */
export const LiveContext = createContext<LiveClient | null>(null);
