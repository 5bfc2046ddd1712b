/**
 * The bar under the locations list while locations are selected: "12 selected", then Group
 * (put them in a group or take them out, each group's box showing whether all, some or none of
 * them are in it, as mail's labels do), Move to floor, Delete (asked once, naming the count and
 * the first titles), and Clear selection. Each action is one `onEdit` call, so one undo step;
 * its result goes to `onDone` in words, for the panel's notice and screen readers.
 *
 * The group and floor choices open inside the bar, above its buttons, not as a floating menu:
 * the bar sticks to the bottom of the panel, and a short list leaves no room above it.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { MapDocument } from '../../../../../events/map-document';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { countInGroup, floorEdits, groupEdits, namesInWords, removalEdits } from './location-bulk-edits';
import type { EditorPanelProps } from './panel-props';

type Location = MapDocument['locations'][number];
type Menu = 'group' | 'floor' | null;

export interface LocationsBulkBarProps extends EditorPanelProps {
  /** The selected locations that exist, in the list's order. */
  selected: readonly Location[];
  /** How many of them the list's filter (search, floor) leaves out. */
  outsideList: number;
  onClear(): void;
  /** An action was taken: what it did, in words; `deleted` when the selection is gone with it. */
  onDone(message: string, deleted?: boolean): void;
}

const count = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

function Icon({ path }: { path: string }) {
  return (
    <svg width="15" height="15" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
      <path d={path} />
    </svg>
  );
}

const ICONS = {
  tag: 'M3 12V4a1 1 0 0 1 1-1h8l9 9-9 9zM7.5 7.5h.01',
  layers: 'M12 3l9 5-9 5-9-5 9-5zM3 13l9 5 9-5',
  trash: 'M4 7h16M10 11v6M14 11v6M6 7l1 13h10l1-13M9 7V4h6v3',
  close: 'M6 6l12 12M18 6L6 18',
  chevron: 'M6 15l6-6 6 6',
};

/** A group's box: ticked when every selected location is in it, half when some are. */
function GroupChoice({ name, color, inGroup, of, onChange }: { name: string; color: string | null; inGroup: number; of: number; onChange(): void }) {
  const ref = useRef<HTMLInputElement>(null);
  const some = inGroup > 0 && inGroup < of;
  useEffect(() => {
    if (ref.current) ref.current.indeterminate = some;
  }, [some]);
  return (
    <li>
      <label className="ep-loc-check ep-loc-bulk__choice">
        <input ref={ref} type="checkbox" checked={inGroup === of} aria-checked={some ? 'mixed' : inGroup === of} onChange={onChange} />
        <span className="ep-loc-dot" data-empty={color ? undefined : 'true'} style={color ? { background: color } : undefined} aria-hidden="true" />
        <span className="ep-loc-check__text">{name}</span>
        <span className="ep-loc-bulk__tally">{inGroup === 0 ? '' : inGroup === of ? 'All' : `${inGroup.toLocaleString('en')} of ${of.toLocaleString('en')}`}</span>
      </label>
    </li>
  );
}

export function LocationsBulkBar({ document, onEdit, selected, outsideList, onClear, onDone }: LocationsBulkBarProps) {
  const ids = useId();
  const barRef = useRef<HTMLDivElement>(null);
  const menuButtons = useRef<Record<'group' | 'floor', HTMLButtonElement | null>>({ group: null, floor: null });
  const [menu, setMenu] = useState<Menu>(null);
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const n = selected.length;
  const multiFloor = document.layers.length > 1;

  // A click anywhere outside the bar closes its open choice, as a menu would.
  useEffect(() => {
    if (!menu) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!(event.target instanceof Node) || !barRef.current?.contains(event.target)) setMenu(null);
    };
    window.document.addEventListener('pointerdown', onPointerDown);
    return () => window.document.removeEventListener('pointerdown', onPointerDown);
  }, [menu]);

  const toggleMenu = (which: 'group' | 'floor') => {
    setProblem(null);
    setMenu((open) => (open === which ? null : which));
  };

  const closeMenu = () => {
    const open = menu;
    setMenu(null);
    if (open) menuButtons.current[open]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Esc closes the open choice first; the selection is cleared by the next one (the list's).
    if (event.key === 'Escape' && menu) {
      event.stopPropagation();
      closeMenu();
    }
  };

  const setGroup = (groupId: string, name: string, add: boolean) => {
    const { edits, full } = groupEdits(selected, groupId, add);
    const refused = full > 0 ? ` ${count(full, 'location is', 'locations are')} in 50 groups already, the most a location can be in.` : '';
    if (edits.length > 0) onEdit(edits);
    if (edits.length === 0 && full > 0) {
      setProblem(`Not added to “${name}”:${refused}`);
      return;
    }
    setProblem(full > 0 ? `Added ${count(edits.length, 'location', 'locations')} to “${name}”.${refused}` : null);
    onDone(add ? `Added ${count(edits.length, 'location', 'locations')} to “${name}”.` : `Took ${count(edits.length, 'location', 'locations')} out of “${name}”.`);
  };

  const moveTo = (layerId: string, name: string) => {
    const edits = floorEdits(selected, layerId);
    setMenu(null);
    menuButtons.current.floor?.focus();
    if (edits.length === 0) return;
    onEdit(edits);
    onDone(`Moved ${count(edits.length, 'location', 'locations')} to ${name}.`);
  };

  const remove = () => {
    setConfirming(false);
    const edits = removalEdits(selected);
    if (edits.length === 0) return;
    onEdit(edits);
    onDone(`Deleted ${count(n, 'location', 'locations')}.`, true);
  };

  const only = n === 1 ? selected[0] : undefined;

  return (
    <div ref={barRef} className="ep-loc-bulk" role="region" aria-label="Selected locations" onKeyDown={onKeyDown}>
      {menu === 'group' ? (
        <div className="ep-loc-bulk__menu" id={`${ids}-menu`}>
          <p className="ep-loc-bulk__menu-title" id={`${ids}-menu-title`}>
            {`Groups of the ${count(n, 'selected location', 'selected locations')}`}
          </p>
          {document.groups.length === 0 ? (
            <p className="ep-loc-bulk__empty">No groups yet: make them in the Groups tab.</p>
          ) : (
            <ul className="ep-loc-bulk__choices" role="group" aria-labelledby={`${ids}-menu-title`}>
              {document.groups.map((group) => {
                const inGroup = countInGroup(selected, group.id);
                return <GroupChoice key={group.id} name={group.name} color={group.color} inGroup={inGroup} of={n} onChange={() => setGroup(group.id, group.name, inGroup < n)} />;
              })}
            </ul>
          )}
          {problem ? (
            <p className="ep-loc-error" role="alert">
              {problem}
            </p>
          ) : null}
        </div>
      ) : menu === 'floor' ? (
        <div className="ep-loc-bulk__menu" id={`${ids}-menu`}>
          <p className="ep-loc-bulk__menu-title" id={`${ids}-menu-title`}>
            {`Move the ${count(n, 'selected location', 'selected locations')} to`}
          </p>
          <ul className="ep-loc-bulk__choices" role="group" aria-labelledby={`${ids}-menu-title`}>
            {document.layers.map((layer) => {
              const here = selected.filter((location) => location.layer === layer.id).length;
              return (
                <li key={layer.id}>
                  <button type="button" className="ep-loc-bulk__floor" disabled={here === n} onClick={() => moveTo(layer.id, layer.name)}>
                    <span className="ep-loc-check__text">{layer.name}</span>
                    <span className="ep-loc-bulk__tally">{here === 0 ? '' : here === n ? 'All here' : `${here.toLocaleString('en')} here`}</span>
                  </button>
                </li>
              );
            })}
          </ul>
          <p className="ep-loc-hint">Each keeps its spot on the plan.</p>
        </div>
      ) : null}

      <div className="ep-loc-bulk__row">
        <p className="ep-loc-bulk__count">
          <strong>{`${n.toLocaleString('en')} selected`}</strong>
          {outsideList > 0 ? <span className="ep-loc-bulk__outside">{`${outsideList.toLocaleString('en')} outside this list`}</span> : null}
        </p>
        <button type="button" className="ep-loc-bulk__clear" aria-label="Clear selection" title="Clear selection (Esc)" onClick={onClear}>
          <Icon path={ICONS.close} />
        </button>
      </div>
      <div className="ep-loc-bulk__actions">
        <button
          ref={(element) => {
            menuButtons.current.group = element;
          }}
          type="button"
          className="ep-loc-bulk__action"
          aria-expanded={menu === 'group'}
          aria-controls={menu === 'group' ? `${ids}-menu` : undefined}
          onClick={() => toggleMenu('group')}
        >
          <Icon path={ICONS.tag} />
          Group
        </button>
        {multiFloor ? (
          <button
            ref={(element) => {
              menuButtons.current.floor = element;
            }}
            type="button"
            className="ep-loc-bulk__action"
            aria-expanded={menu === 'floor'}
            aria-controls={menu === 'floor' ? `${ids}-menu` : undefined}
            onClick={() => toggleMenu('floor')}
          >
            <Icon path={ICONS.layers} />
            Move to floor
          </button>
        ) : null}
        <button type="button" className="ep-loc-bulk__action ep-loc-bulk__action--danger" onClick={() => setConfirming(true)}>
          <Icon path={ICONS.trash} />
          Delete
        </button>
      </div>

      <ConfirmDialog
        open={confirming}
        title={only ? `Delete “${only.title}”?` : `Delete ${count(n, 'location', 'locations')}?`}
        confirmLabel={only ? 'Delete location' : `Delete ${count(n, 'location', 'locations')}`}
        onConfirm={remove}
        onCancel={() => setConfirming(false)}
      >
        <p>{`${namesInWords(selected)} ${n === 1 ? 'disappears' : 'disappear'} from the map for everyone. You can undo this.`}</p>
        {outsideList > 0 ? <p>{n === 1 ? 'It is not in the list as it is filtered now.' : `${count(outsideList, 'of them is', 'of them are')} not in the list as it is filtered now.`}</p> : null}
      </ConfirmDialog>
    </div>
  );
}
