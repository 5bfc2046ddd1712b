/**
 * "Check network" in the Paths panel (events/wayfinding/check-network.ts): the locations
 * visitors cannot reach (and why), those reached only by steps, dead ends, lone points and
 * connector stops no link reaches. Each finding is a button that shows it on the map. Once
 * asked, the check follows the map as it is edited, so a fix drops off the list.
 */
import { useEffect, useId, useMemo, useState } from 'react';
import type { MapDocument } from '../../../../../events/map-document';
import { checkNetwork, type UnreachableReason } from '../../../../../events/wayfinding/check-network';
import { pointName, pointNumbers } from './path-names';

export interface NetworkCheckProps {
  document: MapDocument;
  onShowLocation: (id: string) => void;
  onShowPoint: (id: string, layer: string) => void;
  /** The points the check flags, to mark on the map (null: not asked). */
  onFlagged: (ids: ReadonlySet<string> | null) => void;
}

const REASONS: Readonly<Record<UnreachableReason, string>> = {
  'no-entrance': 'no path point on its floor and no entrance',
  'apart-on-floor': 'its paths are cut off from the rest of the floor',
  'floor-apart': 'no connector joins its floor to the others',
};

export function NetworkCheck({ document: doc, onShowLocation, onShowPoint, onFlagged }: NetworkCheckProps) {
  const ids = useId();
  const [asked, setAsked] = useState(false);
  const check = useMemo(() => (asked ? checkNetwork(doc) : null), [asked, doc]);
  const numbers = useMemo(() => pointNumbers(doc.paths), [doc.paths]);
  useEffect(() => {
    onFlagged(check ? new Set([...check.deadEnds, ...check.isolated, ...check.loneStops].map((finding) => finding.node)) : null);
  }, [check, onFlagged]);
  useEffect(() => () => onFlagged(null), [onFlagged]);

  const floorName = (layer: string) => doc.layers.find((candidate) => candidate.id === layer)?.name ?? layer;
  const title = (id: string) => doc.locations.find((location) => location.id === id)?.title ?? id;
  const point = (id: string, layer: string) => {
    const node = doc.paths.nodes.find((candidate) => candidate.id === id);
    return `${node ? pointName(node, numbers) : 'A point'} on ${floorName(layer)}`;
  };
  const problems = check ? check.unreachable.length + check.stepsOnly.length + check.deadEnds.length + check.isolated.length + check.loneStops.length : 0;

  return (
    <section className="ep-section" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} className="ep-section__title">
        Check network
      </h3>
      <div className="pt-row">
        <button type="button" className="ep-loc-button" aria-pressed={asked} onClick={() => setAsked(!asked)}>
          {asked ? 'Hide the check' : 'Check network'}
        </button>
      </div>
      <div aria-live="polite">
        {check ? (
          <div className="pt-findings">
            <p className="ep-hint">
              {problems === 0
                ? 'Every location can be reached, step-free too, and no path stops short.'
                : `${problems === 1 ? '1 thing' : `${problems} things`} to look at. Choose one to see it on the map.`}
            </p>
            <Findings
              label="Unreachable locations"
              items={check.unreachable.map((finding) => ({ key: finding.location, text: `${title(finding.location)} (${floorName(finding.layer)}): ${REASONS[finding.reason]}`, show: () => onShowLocation(finding.location) }))}
            />
            <Findings
              label="Reached only with steps"
              items={check.stepsOnly.map((finding) => ({ key: finding.location, text: `${title(finding.location)} (${floorName(finding.layer)})`, show: () => onShowLocation(finding.location) }))}
            />
            <Findings label="Dead ends" items={check.deadEnds.map((finding) => ({ key: finding.node, text: point(finding.node, finding.layer), show: () => onShowPoint(finding.node, finding.layer) }))} />
            <Findings label="Points on their own" items={check.isolated.map((finding) => ({ key: finding.node, text: point(finding.node, finding.layer), show: () => onShowPoint(finding.node, finding.layer) }))} />
            <Findings
              label="Connector stops no path reaches"
              items={check.loneStops.map((finding) => ({ key: `${finding.connector}:${finding.node}`, text: point(finding.node, finding.layer), show: () => onShowPoint(finding.node, finding.layer) }))}
            />
          </div>
        ) : null}
      </div>
    </section>
  );
}

function Findings({ label, items }: { label: string; items: Array<{ key: string; text: string; show: () => void }> }) {
  const id = useId();
  if (items.length === 0) return null;
  return (
    <div>
      <h4 id={id} className="pt-findings__title">
        {label} ({items.length})
      </h4>
      <ul className="pt-list" aria-labelledby={id}>
        {items.map((item) => (
          <li key={item.key}>
            <button type="button" className="pt-list__item" onClick={item.show}>
              {item.text}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
