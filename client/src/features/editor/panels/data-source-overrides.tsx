/**
 * Overridden fields (issue 30 item 4): the synced fields edited in Mapfold, which syncs leave as
 * they are, each with Mapfold's value and the source's. Per field, or for all, the owner keeps
 * Mapfold's value (later syncs leave it alone, until the choice changes) or uses the source's
 * (recorded now as one change, undone as one step). Each button names its field and location
 * to screen readers through its description (the row's heading).
 */
import { useId, useRef } from 'react';
import type { OverrideChoice, OverriddenField } from '../../../../../events/map-data-source';
import type { MapDocument } from '../../../../../events/map-document';
import './data-source.css';

export interface OverrideChoiceItem {
  key: string;
  field: OverriddenField['field'];
  choice: OverrideChoice;
}

export interface DataSourceOverridesProps {
  overrides: readonly OverriddenField[];
  /** Overridden fields kept but not listed (too many). */
  more: number;
  busy: boolean;
  /** The map, for its floors' and groups' names. */
  document?: MapDocument | undefined;
  onResolve: (choices: OverrideChoiceItem[]) => void;
}

const FIELD_LABELS: Record<string, string> = {
  title: 'Title',
  about: 'Short text',
  description: 'Description',
  image: 'Image',
  thumbnail: 'Thumbnail',
  link: 'Link',
  phone: 'Phone',
  hours: 'Opening hours',
  layer: 'Floor',
  position: 'Position',
  element: 'Region',
  zoom: 'Zoom level',
  marker: 'Marker',
  color: 'Colour',
  label: 'Label',
  groups: 'Groups',
  hidden: 'Hidden',
  entrances: 'Entrances',
};

export const fieldLabel = (field: string) => FIELD_LABELS[field] ?? field;

const MAX_SHOWN = 160;

/** A field's value in words: text as it reads (rich text without its tags), a position by its coordinates, a floor or groups by name. */
export function valueText(field: string, value: unknown, document?: MapDocument): string {
  if (value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return '(empty)';
  let text: string;
  if (field === 'position' && typeof value === 'object' && value !== null && 'x' in value && 'y' in value) {
    const { x, y } = value as { x: number; y: number };
    text = `x ${Math.round(x * 10) / 10}, y ${Math.round(y * 10) / 10}`;
  } else if (field === 'layer' && typeof value === 'string') {
    text = document?.layers.find((layer) => layer.id === value)?.name ?? value;
  } else if (field === 'groups' && Array.isArray(value)) {
    text = value.map((id) => document?.groups.find((group) => group.id === id)?.name ?? String(id)).join(', ');
  } else if (typeof value === 'boolean') {
    text = value ? 'Yes' : 'No';
  } else if (typeof value === 'string') {
    text = field === 'description' ? value.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>') : value;
    text = text.replace(/\s+/g, ' ').trim() || '(empty)';
  } else if (Array.isArray(value)) {
    text = value.join(', ');
  } else {
    text = JSON.stringify(value);
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN - 1)}…` : text;
}

const fields = (count: number) => (count === 1 ? '1 field' : `${count.toLocaleString('en')} fields`);

export function DataSourceOverrides({ overrides, more, busy, document, onResolve }: DataSourceOverridesProps) {
  const ids = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  if (overrides.length === 0 && more === 0) return null;
  const pending = overrides.filter((item) => item.choice === null);
  const kept = overrides.length - pending.length;
  // Pending first, then the kept ones.
  const listed = [...pending, ...overrides.filter((item) => item.choice === 'keep')];
  const resolve = (choices: OverrideChoiceItem[]) => {
    // The row (and the focused button) may go: the list's heading keeps the focus.
    heading.current?.focus();
    onResolve(choices);
  };
  return (
    <div className="ds-overrides" role="group" aria-labelledby={`${ids}-title`} aria-describedby={`${ids}-hint`}>
      <h4 id={`${ids}-title`} ref={heading} tabIndex={-1} className="ds-overrides__title">
        Overridden fields <span className="ep-badge">{(overrides.length + more).toLocaleString('en')}</span>
      </h4>
      <p id={`${ids}-hint`} className="ep-hint">
        {pending.length > 0 ? `${fields(pending.length)} edited in Mapfold since the last sync: syncs keep Mapfold’s value until you choose. ` : ''}
        {kept > 0 ? `${fields(kept)} kept in Mapfold: syncs leave ${kept === 1 ? 'it' : 'them'} alone.` : ''}
      </p>
      {listed.length > 1 ? (
        <div className="ep-button-row">
          <button type="button" className="ep-button" disabled={busy || pending.length === 0} onClick={() => resolve(pending.map(({ key, field }) => ({ key, field, choice: 'keep' })))}>
            Keep all Mapfold values
          </button>
          <button type="button" className="ep-button" disabled={busy} onClick={() => resolve(listed.map(({ key, field }) => ({ key, field, choice: 'source' })))}>
            Use the source for all
          </button>
        </div>
      ) : null}
      <ul className="ds-overrides__list">
        {listed.map((item, index) => {
          const name = `${ids}-item-${index}`;
          return (
            <li key={`${item.key}\u0000${item.field}`} className="ds-override">
              <p id={name} className="ds-override__name">
                <span className="ds-override__location">{item.title}</span>
                <span className="ds-override__field">{fieldLabel(item.field)}</span>
                {item.choice === 'keep' ? <span className="ep-badge ep-badge--quiet">Kept</span> : null}
              </p>
              <dl className="ds-override__values">
                <div>
                  <dt>Mapfold</dt>
                  <dd>{valueText(item.field, item.mapfold, document)}</dd>
                </div>
                <div>
                  <dt>Source</dt>
                  <dd>{valueText(item.field, item.source, document)}</dd>
                </div>
              </dl>
              <div className="ep-button-row">
                {item.choice === null ? (
                  <button type="button" className="ep-button" aria-describedby={name} disabled={busy} onClick={() => resolve([{ key: item.key, field: item.field, choice: 'keep' }])}>
                    Keep Mapfold’s value
                  </button>
                ) : null}
                <button type="button" className="ep-button" aria-describedby={name} disabled={busy} onClick={() => resolve([{ key: item.key, field: item.field, choice: 'source' }])}>
                  Use the source’s value
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {more > 0 ? <p className="ep-hint">{fields(more)} more are overridden and kept, but too many to list.</p> : null}
    </div>
  );
}
