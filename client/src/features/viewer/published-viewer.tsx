/**
 * A published map's page as the server rendered it (client/src/viewer-server.tsx) and the
 * browser hydrates it (client/src/viewer-main.tsx): the viewer with the map in the page, its
 * visit counted (insights.ts). All the viewer's first chunk needs beside the viewer itself:
 * loading a map from the API, and saying why it cannot be shown, are viewer-app.tsx's, which a
 * published map's page never loads.
 */
import { useEffect, useState } from 'react';
import { startInsights } from './insights';
import { Viewer, type PublicMap } from './viewer';

/** True inside another site's page (an embed): the page keeps its scrolling. */
export function isEmbedded(): boolean {
  try {
    return window.self !== window.top;
  } catch {
    return true; // a cross-origin parent cannot even be compared
  }
}

/** Marks the moment the map is first on screen (read by the benchmarks and the e2e tests). */
export function markReady() {
  performance.mark('mapfold:viewer-ready');
  (window as { __mapfoldViewerReady?: number }).__mapfoldViewerReady = performance.now();
}

export interface PublishedViewerProps {
  map: PublicMap;
  /** Embedded (cooperative gestures); by default found out in the browser, after hydrating. */
  cooperative?: boolean | undefined;
  /** The site's public address (the server's, in a server-rendered page). */
  publicUrl?: string | undefined;
  /** The directory's order as the server sorted it (events/directory-order.ts). */
  directoryOrder?: readonly number[] | undefined;
}

export function PublishedViewer({ map, cooperative, publicUrl, directoryOrder }: PublishedViewerProps) {
  // Inside another site's page? Known only in the browser: the server's page says no, and a
  // hydrated page learns it right after (cooperative gestures only change event handling).
  const [embedded, setEmbedded] = useState(cooperative ?? false);
  useEffect(() => {
    if (cooperative === undefined) setEmbedded(isEmbedded());
  }, [cooperative]);
  // Numbers for the owner (insights.ts): a published map's page counts its visit, not a test map's.
  const counted = map.test ? null : map.id;
  useEffect(() => (counted ? startInsights(counted) : undefined), [counted]);
  // The server's page has the map's title in its head already.
  return <Viewer map={map} cooperative={embedded} onReady={markReady} serverRendered directoryOrder={directoryOrder} {...(publicUrl ? { publicUrl } : {})} />;
}
