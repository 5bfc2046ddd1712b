/**
 * What a connector is, once a click said where it stands: its kind, a name for the directions
 * ("Take Lift A to Level 1") and the floors it reaches. One stop point per ticked floor at the
 * same place, all in one edit (tools/path-edits.ts `connectorEdit`).
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { Layer, Point } from '../../../../../events/map-document';
import { CONNECTOR_KINDS, type ConnectorKind } from '../../../../../events/path-network';
import { Button } from '../../../components/ui/button';
import type { ConnectorDraft } from '../tools/path-edits';
import { CONNECTOR_KIND_LABEL } from './path-names';

export interface ConnectorDialogProps {
  layers: readonly Layer[];
  /** The floor shown, where the click was: ticked from the start. */
  layerId: string;
  at: Point;
  onCreate: (draft: ConnectorDraft) => void;
  onCancel: () => void;
}

export function ConnectorDialog({ layers, layerId, at, onCreate, onCancel }: ConnectorDialogProps) {
  const ids = useId();
  const [kind, setKind] = useState<ConnectorKind>('lift');
  const [name, setName] = useState('');
  // Every floor ticked at first: most lifts and stairs reach them all.
  const [floors, setFloors] = useState<ReadonlySet<string>>(() => new Set(layers.map((layer) => layer.id)));
  const [error, setError] = useState<string | null>(null);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => {
    first.current?.focus();
  }, []);

  const submit = () => {
    const chosen = layers.filter((layer) => floors.has(layer.id)).map((layer) => layer.id);
    if (chosen.length < 2) {
      setError('Tick at least two floors: a connector joins floors.');
      return;
    }
    if (name.trim().length > 100) {
      setError('The name must be at most 100 characters.');
      return;
    }
    onCreate({ kind, name, at, layers: chosen });
  };

  return (
    <div
      className="pt-dialog"
      role="dialog"
      aria-labelledby={`${ids}-title`}
      data-mf-ui=""
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <h3 id={`${ids}-title`} className="pt-dialog__title">
        New connector
      </h3>
      {layers.length < 2 ? (
        <p className="ep-note">A connector joins floors: add a second floor in the Floors panel first.</p>
      ) : null}
      <form
        className="pt-dialog__form"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <fieldset className="pt-dialog__fieldset">
          <legend>Kind</legend>
          <div className="pt-dialog__kinds">
            {CONNECTOR_KINDS.map((candidate, index) => (
              <label key={candidate} className="pt-choice">
                <input ref={index === 0 ? first : undefined} type="radio" name={`${ids}-kind`} value={candidate} checked={kind === candidate} onChange={() => setKind(candidate)} />
                {CONNECTOR_KIND_LABEL[candidate]}
              </label>
            ))}
          </div>
        </fieldset>
        <label className="pt-dialog__name">
          <span>Name (optional)</span>
          <input className="ep-input" value={name} maxLength={100} placeholder={`${CONNECTOR_KIND_LABEL[kind]} A`} onChange={(event) => setName(event.target.value)} />
        </label>
        <fieldset className="pt-dialog__fieldset">
          <legend>Floors it reaches</legend>
          {layers.map((layer) => (
            <label key={layer.id} className="pt-choice">
              <input
                type="checkbox"
                checked={floors.has(layer.id)}
                onChange={(event) => {
                  const next = new Set(floors);
                  if (event.target.checked) next.add(layer.id);
                  else next.delete(layer.id);
                  setFloors(next);
                  setError(null);
                }}
              />
              {layer.name}
              {layer.id === layerId ? <span className="pt-choice__note"> (this floor)</span> : null}
            </label>
          ))}
        </fieldset>
        {error ? (
          <p className="ep-error" role="alert">
            {error}
          </p>
        ) : null}
        <div className="pt-dialog__actions">
          <Button size="sm" type="submit" disabled={layers.length < 2}>
            Add connector
          </Button>
          <Button size="sm" variant="ghost" onClick={onCancel}>
            Cancel
          </Button>
        </div>
      </form>
    </div>
  );
}
