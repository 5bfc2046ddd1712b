/**
 * The Paths panel: the path tools (draw, add a connector) and how they work; the selected
 * point or link (a link's "step-free" and "one-way"); the connectors; the points and links of
 * the floor shown as lists, so everything drawn can be reached, selected and deleted by
 * keyboard; "check network" and "test a route" below (given as `children`).
 */
import { useEffect, useId, useRef, type ReactNode } from 'react';
import type { MapDocument } from '../../../../../events/map-document';
import type { PathsEdit } from '../../../../../events/path-network';
import { edgeFlagsEdit, pathsEdit, reverseEdgeEdit } from '../tools/path-edits';
import type { PathSelection } from '../tools/path-machine';
import type { ToolName } from '../tools/tools-machine';
import { connectorName, linkName, pointName, pointNumbers } from './path-names';

/** Points and links listed at most (a large floor's rest is reached on the map). */
const LIST_LIMIT = 300;

export interface PathsPanelProps {
  document: MapDocument;
  onEdit: (edit: PathsEdit) => void;
  layerId: string;
  tool: ToolName;
  onTool: (tool: ToolName) => void;
  selection: PathSelection | null;
  onSelect: (selection: PathSelection | null) => void;
  /** Directions are published for this map (Professional, the demo): no notice. */
  directionsPublished: boolean;
  children?: ReactNode;
}

export function PathsPanel({ document: doc, onEdit, layerId, tool, onTool, selection, onSelect, directionsPublished, children }: PathsPanelProps) {
  const ids = useId();
  const network = doc.paths;
  const numbers = pointNumbers(network);
  const nodesById = new Map(network.nodes.map((node) => [node.id, node]));
  const nodes = network.nodes.filter((node) => node.layer === layerId);
  const edges = network.edges.filter((edge) => nodesById.get(edge.from)?.layer === layerId);
  const floor = doc.layers.find((layer) => layer.id === layerId)?.name ?? '';
  const selectedNode = selection?.kind === 'node' ? nodesById.get(selection.id) ?? null : null;
  const selectedEdge = selection?.kind === 'edge' ? network.edges.find((edge) => edge.id === selection.id) ?? null : null;
  const stopOf = selectedNode ? network.connectors.find((connector) => connector.nodes.includes(selectedNode.id)) ?? null : null;
  const selectedRef = useRef<HTMLDivElement>(null);
  // A selection made on the map shows its details in view. (Braces: Chromium's scrollIntoView
  // answers a promise, which React would take for the effect's cleanup.)
  useEffect(() => {
    void selectedRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [selection?.id]);

  return (
    <div className="ep-panel pt-panel">
      {directionsPublished ? null : (
        <p className="ep-note" role="note">
          Directions for visitors need the Professional plan. You can draw and test paths on this map now; visitors get directions once it is published in a Pro slot.
        </p>
      )}
      <div className="pt-tools" role="group" aria-label="Path tools">
        <button type="button" className="ep-loc-button" aria-pressed={tool === 'drawPath'} onClick={() => onTool(tool === 'drawPath' ? 'select' : 'drawPath')}>
          Draw paths
        </button>
        <button type="button" className="ep-loc-button" aria-pressed={tool === 'placeConnector'} onClick={() => onTool(tool === 'placeConnector' ? 'select' : 'placeConnector')}>
          Add connector
        </button>
      </div>
      <p className="ep-hint">
        {tool === 'placeConnector'
          ? 'Click the map where the lift, stairs, escalator or ramp stands.'
          : 'Click the map to lay a path; each click adds a point linked to the last. Shift-click a point or a link to branch from it. Points snap to nearby points and to right angles (hold Alt not to snap). Drag a point to move it. Esc ends the path; Delete removes what is selected.'}
      </p>

      <div ref={selectedRef} aria-live="polite">
        {selectedEdge ? (
          <section className="ep-section pt-selected" aria-labelledby={`${ids}-sel`}>
            <h3 id={`${ids}-sel`} className="ep-section__title">
              Selected link
            </h3>
            <p className="ep-hint">{linkName(selectedEdge, numbers)}</p>
            <label className="pt-choice">
              <input type="checkbox" checked={selectedEdge.stepFree} onChange={(event) => onEdit(edgeFlagsEdit(selectedEdge, { stepFree: event.target.checked }))} />
              Step-free (no steps: wheelchairs and pushchairs can use it)
            </label>
            <label className="pt-choice">
              <input type="checkbox" checked={selectedEdge.oneWay} onChange={(event) => onEdit(edgeFlagsEdit(selectedEdge, { oneWay: event.target.checked }))} />
              One-way (in the arrow&rsquo;s direction)
            </label>
            <div className="pt-row">
              {selectedEdge.oneWay ? (
                <button type="button" className="ep-loc-button" onClick={() => onEdit(reverseEdgeEdit(selectedEdge))}>
                  Reverse direction
                </button>
              ) : null}
              <button
                type="button"
                className="ep-loc-button ep-loc-button--danger"
                onClick={() => {
                  onEdit(pathsEdit({ removeEdges: [selectedEdge.id] }));
                  onSelect(null);
                }}
              >
                Delete link
              </button>
            </div>
          </section>
        ) : selectedNode ? (
          <section className="ep-section pt-selected" aria-labelledby={`${ids}-sel`}>
            <h3 id={`${ids}-sel`} className="ep-section__title">
              Selected point
            </h3>
            <p className="ep-hint">
              {pointName(selectedNode, numbers)}
              {stopOf ? `, a stop of ${connectorName(stopOf, doc)}` : ''}
            </p>
            <div className="pt-row">
              <button
                type="button"
                className="ep-loc-button ep-loc-button--danger"
                onClick={() => {
                  onEdit(pathsEdit({ removeNodes: [selectedNode.id] }));
                  onSelect(null);
                }}
              >
                Delete point
              </button>
            </div>
          </section>
        ) : null}
      </div>

      <section className="ep-section" aria-labelledby={`${ids}-conn`}>
        <h3 id={`${ids}-conn`} className="ep-section__title">
          Connectors
        </h3>
        {network.connectors.length === 0 ? (
          <p className="ep-hint">None yet. Lifts, stairs, escalators and ramps join the floors: “Add connector”, then click where it stands.</p>
        ) : (
          <ul className="pt-list" aria-label="Connectors">
            {network.connectors.map((connector) => {
              const name = connectorName(connector, doc);
              const here = connector.nodes.find((id) => nodesById.get(id)?.layer === layerId);
              return (
                <li key={connector.id}>
                  <button type="button" className="pt-list__item" disabled={!here} aria-pressed={here !== undefined && selection?.id === here} onClick={() => here && onSelect({ kind: 'node', id: here })}>
                    {name}
                  </button>
                  <button type="button" className="ep-loc-button ep-loc-button--quiet" aria-label={`Delete ${name}`} onClick={() => onEdit(pathsEdit({ removeConnectors: [connector.id], removeNodes: connector.nodes }))}>
                    Delete
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </section>

      <section className="ep-section" aria-labelledby={`${ids}-floor`}>
        <h3 id={`${ids}-floor`} className="ep-section__title">
          On {floor}: {nodes.length === 1 ? '1 point' : `${nodes.length} points`}, {edges.length === 1 ? '1 link' : `${edges.length} links`}
        </h3>
        {nodes.length === 0 ? (
          <p className="ep-hint">No paths on this floor yet.</p>
        ) : (
          <details className="pt-details">
            <summary>Points and links</summary>
            <ul className="pt-list" aria-label={`Path points on ${floor}`}>
              {nodes.slice(0, LIST_LIMIT).map((node) => {
                const name = pointName(node, numbers);
                return (
                  <li key={node.id}>
                    <button type="button" className="pt-list__item" aria-pressed={selection?.kind === 'node' && selection.id === node.id} onClick={() => onSelect({ kind: 'node', id: node.id })}>
                      {name}
                    </button>
                    <button type="button" className="ep-loc-button ep-loc-button--quiet" aria-label={`Delete ${name}`} onClick={() => onEdit(pathsEdit({ removeNodes: [node.id] }))}>
                      Delete
                    </button>
                  </li>
                );
              })}
            </ul>
            <ul className="pt-list" aria-label={`Path links on ${floor}`}>
              {edges.slice(0, LIST_LIMIT).map((edge) => {
                const name = linkName(edge, numbers);
                return (
                  <li key={edge.id}>
                    <button type="button" className="pt-list__item" aria-pressed={selection?.kind === 'edge' && selection.id === edge.id} onClick={() => onSelect({ kind: 'edge', id: edge.id })}>
                      {name}
                    </button>
                    <button type="button" className="ep-loc-button ep-loc-button--quiet" aria-label={`Delete ${name}`} onClick={() => onEdit(pathsEdit({ removeEdges: [edge.id] }))}>
                      Delete
                    </button>
                  </li>
                );
              })}
            </ul>
            {nodes.length > LIST_LIMIT || edges.length > LIST_LIMIT ? <p className="ep-hint">The first {LIST_LIMIT} of each are listed; select the rest on the map.</p> : null}
          </details>
        )}
      </section>
      {children}
    </div>
  );
}
