/**
 * Groups (categories): name, colour, shown in the viewer's legend or not, and how many
 * locations each holds. Deleting a group keeps its locations; they only lose the category.
 */
import { useEffect, useId, useState } from 'react';
import { groupFields, type Group } from '../../../../../events/map-document';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { newElementId } from '../ids';
import { checkedOnEdit, type CheckedOnEdit } from './checked-edits';
import { ColorSwatch, HexInput, useHexDraft } from './color-input';
import type { EditorPanelProps } from './panel-props';
import { NameInput } from './name-input';
import { useDraft } from './use-draft';
import './panels.css';

/** Distinct, legible colours for new groups, in turn. */
export const GROUP_PALETTE = ['#4f46e5', '#ea580c', '#059669', '#db2777', '#0284c7', '#ca8a04', '#7c3aed', '#dc2626', '#0d9488', '#65a30d'] as const;

const MAX_GROUPS = 200;

/** "Group N" for the N-th group, or the first such name no group has yet. */
export function nextGroupName(groups: readonly { name: string }[]): string {
  const names = new Set(groups.map((group) => group.name));
  for (let n = groups.length + 1; ; n++) if (!names.has(`Group ${n}`)) return `Group ${n}`;
}

/**
 * The palette's colours in turn (the N-th group gets the N-th colour), skipping colours other
 * groups have while the palette still has unused ones.
 */
export function nextGroupColor(groups: readonly { color: string }[]): string {
  const used = new Set(groups.map((group) => group.color.toLowerCase()));
  const start = groups.length % GROUP_PALETTE.length;
  for (let i = 0; i < GROUP_PALETTE.length; i++) {
    const color = GROUP_PALETTE[(start + i) % GROUP_PALETTE.length]!;
    if (!used.has(color)) return color;
  }
  return GROUP_PALETTE[start]!;
}

const plural = (count: number) => `${count} ${count === 1 ? 'location' : 'locations'}`;

export function GroupsPanel({ document, onEdit }: EditorPanelProps) {
  const edit = checkedOnEdit(document, onEdit);
  const [deletingId, setDeletingId] = useState<string | null>(null);
  const [deleteError, setDeleteError] = useState<string | null>(null);
  const [focusId, setFocusId] = useState<string | null>(null);
  const groups = document.groups;
  const counts = new Map<string, number>();
  for (const location of document.locations) for (const group of location.groups) counts.set(group, (counts.get(group) ?? 0) + 1);

  const deleting = deletingId ? (groups.find((group) => group.id === deletingId) ?? null) : null;
  // The group went away while the dialog was open (a collaborator, undo): nothing left to ask.
  useEffect(() => {
    if (deletingId && !deleting) setDeletingId(null);
  }, [deletingId, deleting]);

  const add = () => {
    const group: Group = { id: newElementId('group'), name: nextGroupName(groups), color: nextGroupColor(groups), legend: true };
    if (!edit([{ type: 'GroupAdded', group }])) setFocusId(group.id);
  };

  const confirmDelete = () => {
    if (!deleting) return;
    const problem = edit([{ type: 'GroupRemoved', id: deleting.id }]);
    if (problem) {
      setDeleteError(`This group cannot be deleted (${problem}).`);
      return;
    }
    setDeletingId(null);
    setDeleteError(null);
  };

  const deletingCount = deleting ? (counts.get(deleting.id) ?? 0) : 0;
  return (
    <div className="ep-panel">
      <p className="ep-intro">Groups sort locations into categories: visitors filter by them, and the legend shows their colours.</p>
      {groups.length === 0 ? <p className="ep-empty">No groups yet. Add one, then put locations in it from their form.</p> : null}
      {groups.length > 0 ? (
        <ul className="ep-list" aria-label="Groups">
          {groups.map((group) => (
            <GroupRow
              key={group.id}
              group={group}
              count={counts.get(group.id) ?? 0}
              edit={edit}
              focusName={group.id === focusId}
              onDelete={() => {
                setDeleteError(null);
                setDeletingId(group.id);
              }}
            />
          ))}
        </ul>
      ) : null}
      <div className="ep-panel__footer">
        <button type="button" className="ep-add" onClick={add} disabled={groups.length >= MAX_GROUPS}>
          + Add group
        </button>
        {groups.length >= MAX_GROUPS ? <p className="ep-hint">A map has at most {MAX_GROUPS} groups.</p> : null}
      </div>
      <ConfirmDialog
        open={deleting !== null}
        title={`Delete ${deleting?.name ?? 'this group'}?`}
        confirmLabel="Delete group"
        error={deleteError}
        onCancel={() => {
          setDeletingId(null);
          setDeleteError(null);
        }}
        onConfirm={confirmDelete}
      >
        <p className="ep-dialog-text">
          {deletingCount > 0
            ? `Its ${deletingCount} ${deletingCount === 1 ? 'location stays' : 'locations stay'} on the map and only lose this category. You can undo this.`
            : 'No location is in this group. You can undo this.'}
        </p>
      </ConfirmDialog>
    </div>
  );
}

interface GroupRowProps {
  group: Group;
  count: number;
  edit: CheckedOnEdit;
  /** Focus the name (a group just added, to type its name at once). */
  focusName: boolean;
  onDelete(): void;
}

function GroupRow({ group, count, edit, focusName, onDelete }: GroupRowProps) {
  const ids = useId();
  const name = useDraft(group.name, (text) => {
    const parsed = groupFields.name.safeParse(text);
    if (!parsed.success) return `Name ${parsed.error.issues[0]?.message ?? 'is not valid'}`;
    if (parsed.data === group.name) return null;
    return edit([{ type: 'GroupUpdated', id: group.id, changes: { name: parsed.data } }], { coalesce: `group:${group.id}:name` });
  });
  const colorLabel = `Colour of ${group.name}`;
  const setColor = (value: string) => {
    edit([{ type: 'GroupUpdated', id: group.id, changes: { color: value } }], { coalesce: `group:${group.id}:color` });
  };
  const color = useHexDraft(colorLabel, group.color, setColor);
  const nameOfGroupId = `${ids}-group`;
  return (
    <li className="ep-row ep-row--group">
      <span className="ep-row__lead">
        <ColorSwatch label={colorLabel} value={group.color} onColor={setColor} />
      </span>
      <div className="ep-row__main">
        <NameInput label={`Name of ${group.name}`} draft={name} focusOnMount={focusName} />
        <div className="ep-row__meta">
          <HexInput label={colorLabel} draft={color} />
          <span>{plural(count)}</span>
          <label className="ep-check">
            <input
              type="checkbox"
              checked={group.legend}
              aria-describedby={nameOfGroupId}
              onChange={(event) => edit([{ type: 'GroupUpdated', id: group.id, changes: { legend: event.target.checked } }])}
            />
            Show in legend
          </label>
          <span id={nameOfGroupId} className="visually-hidden">
            {group.name}
          </span>
        </div>
        {color.error ? (
          <p id={color.errorId} className="ep-error">
            {color.error}
          </p>
        ) : null}
      </div>
      <div className="ep-row__side">
        <button type="button" className="ep-icon-button ep-icon-button--danger" aria-label={`Delete ${group.name}`} title={`Delete ${group.name}`} onClick={onDelete}>
          <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
            <path d="M4 7h16M10 11v6M14 11v6M6 7l1 12a2 2 0 0 0 2 2h6a2 2 0 0 0 2-2l1-12M9 7V4h6v3" />
          </svg>
        </button>
      </div>
    </li>
  );
}
