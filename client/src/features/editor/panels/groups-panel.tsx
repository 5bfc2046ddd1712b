/**
 * Groups (categories): name, colour, shown in the viewer's legend or not, and how many
 * locations each holds. Deleting a group keeps its locations; they only lose the category.
 */
import { useState } from 'react';
import { Color, groupFields, type Group, type MapDocument } from '../../../../../events/map-document';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { newElementId } from '../ids';
import type { EditorPanelProps, OnEdit } from './panel-props';
import { useDraft } from './use-draft';
import './panels.css';

/** Distinct, legible colours for new groups, in turn. */
export const GROUP_PALETTE = ['#4f46e5', '#ea580c', '#059669', '#db2777', '#0284c7', '#ca8a04', '#7c3aed', '#dc2626', '#0d9488', '#65a30d'] as const;

function nextGroupName(document: MapDocument): string {
  const names = new Set(document.groups.map((group) => group.name));
  for (let n = document.groups.length + 1; ; n++) if (!names.has(`Group ${n}`)) return `Group ${n}`;
}

export function GroupsPanel({ document, onEdit }: EditorPanelProps) {
  const [deleting, setDeleting] = useState<Group | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const counts = new Map<string, number>();
  for (const location of document.locations) for (const group of location.groups) counts.set(group, (counts.get(group) ?? 0) + 1);

  const add = () => {
    const group: Group = {
      id: newElementId('group'),
      name: nextGroupName(document),
      color: GROUP_PALETTE[document.groups.length % GROUP_PALETTE.length]!,
      legend: true,
    };
    onEdit([{ type: 'GroupAdded', group }]);
    setFocusId(group.id);
  };

  return (
    <div className="ep-panel">
      <p className="ep-intro">Groups sort locations into categories: visitors filter by them, and the legend shows their colours.</p>
      {document.groups.length === 0 ? <p className="ep-empty">No groups yet.</p> : null}
      <ul className="ep-list" aria-label="Groups">
        {document.groups.map((group) => (
          <GroupRow key={group.id} group={group} count={counts.get(group.id) ?? 0} onEdit={onEdit} autoFocus={group.id === focusId} onDelete={() => setDeleting(group)} />
        ))}
      </ul>
      <button type="button" className="ep-add" onClick={add} disabled={document.groups.length >= 200}>
        + Add group
      </button>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? 'this group'}?`}
        confirmLabel="Delete group"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) onEdit([{ type: 'GroupRemoved', id: deleting.id }]);
          setDeleting(null);
        }}
      >
        {deleting && (counts.get(deleting.id) ?? 0) > 0
          ? `Its ${counts.get(deleting.id)} ${counts.get(deleting.id) === 1 ? 'location stays' : 'locations stay'} on the map and only lose this category. You can undo this.`
          : 'No location is in this group. You can undo this.'}
      </ConfirmDialog>
    </div>
  );
}

function GroupRow({ group, count, onEdit, autoFocus, onDelete }: { group: Group; count: number; onEdit: OnEdit; autoFocus: boolean; onDelete: () => void }) {
  const name = useDraft(group.name, (text) => {
    const parsed = groupFields.name.safeParse(text);
    if (!parsed.success) return `Name ${parsed.error.issues[0]?.message ?? 'is not valid'}`;
    if (parsed.data !== group.name) onEdit([{ type: 'GroupUpdated', id: group.id, changes: { name: parsed.data } }], { coalesce: `group:${group.id}:name` });
    return null;
  });
  const setColor = (value: string) => {
    const parsed = Color.safeParse(value);
    if (parsed.success && parsed.data !== group.color) onEdit([{ type: 'GroupUpdated', id: group.id, changes: { color: parsed.data } }], { coalesce: `group:${group.id}:color` });
  };
  const errorId = `${group.id}-name-error`;
  return (
    <li className="ep-row ep-row--group">
      <input type="color" className="ep-swatch" value={group.color} aria-label={`Colour of ${group.name}`} onChange={(event) => setColor(event.target.value)} />
      <div className="ep-row__main">
        <input
          className="ep-input"
          value={name.value}
          aria-label={`Name of ${group.name}`}
          aria-invalid={name.error ? true : undefined}
          aria-describedby={name.error ? errorId : undefined}
          // Focus the name of a group just added, to type it at once.
          autoFocus={autoFocus}
          onChange={name.onChange}
          onFocus={(event) => {
            name.onFocus();
            if (autoFocus) event.currentTarget.select();
          }}
          onBlur={name.onBlur}
          onKeyDown={(event) => {
            if (event.key === 'Enter') event.currentTarget.blur();
          }}
        />
        {name.error ? (
          <p id={errorId} className="ep-error">
            {name.error}
          </p>
        ) : null}
        <div className="ep-row__meta">
          <span>
            {count} {count === 1 ? 'location' : 'locations'}
          </span>
          <label className="ep-check">
            <input type="checkbox" checked={group.legend} onChange={(event) => onEdit([{ type: 'GroupUpdated', id: group.id, changes: { legend: event.target.checked } }])} />
            Show in legend
          </label>
        </div>
      </div>
      <button type="button" className="ep-icon-button ep-icon-button--danger" aria-label={`Delete ${group.name}`} onClick={onDelete}>
        <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" aria-hidden="true">
          <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
        </svg>
      </button>
    </li>
  );
}
