/**
 * The map's legend: its groups that show in it, each with its colour, in a `<details>` the
 * visitor opens and closes (natively: it works before, and without, JavaScript). Drawn by the
 * server, hydrated after the map with the directory (hydrated-later.ts): nothing in it is on
 * the way to the map's first render.
 */
import { useEffect, useRef, useState } from 'react';
import type { Group } from '../../components/map/types';
import { useTranslator } from '../../i18n/i18n-context';

export interface LegendProps {
  /** The groups the legend shows. */
  groups: readonly Group[];
  /** Open at first (the viewer's choice: not when the sidebar's filter chips show the colours). */
  open: boolean;
  /** A narrow screen's media query: the legend starts closed there. */
  narrow: string;
  /** Hydrating the server's page, which could not know the screen. */
  serverRendered: boolean;
}

export function Legend({ groups, open, narrow, serverRendered }: LegendProps) {
  const { t } = useTranslator();
  // (The server's page cannot know the screen: its legend starts open, and closes on a phone once hydrated.)
  const [startsOpen] = useState(() => open && !(!serverRendered && typeof matchMedia === 'function' && matchMedia(narrow).matches));
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    if (serverRendered && ref.current && matchMedia(narrow).matches) ref.current.open = false;
  }, [serverRendered, narrow]);
  return (
    <details ref={ref} className="mf-legend" open={startsOpen}>
      <summary>{t('viewer.legend')}</summary>
      <ul>
        {groups.map((group) => (
          <li key={group.id}>
            <span className="mf-legend__swatch" style={{ background: group.color }} aria-hidden="true" />
            {group.name}
          </li>
        ))}
      </ul>
    </details>
  );
}
