/**
 * The location form's Look section: the marker, the colour (the group's or its own), the label
 * on the map, the groups it is in, and whether visitors see it.
 */
import { useId, useState } from 'react';
import { locationFields, MARKER_TYPES, type Location, type MapDocument } from '../../../../../events/map-document';
import { TextField } from '../../../components/ui/field';
import { message, Section, SelectField, type LocationUpdate } from './location-form-fields';
import { useDraft, type Draft } from './use-draft';

export const MARKER_LABELS: Record<Location['marker'], string> = {
  circle: 'Circle',
  dot: 'Dot',
  pin: 'Pin',
  label: 'Text label',
  thumbnail: 'Thumbnail image',
  hidden: 'No marker',
};

export interface LocationLookProps {
  document: MapDocument;
  location: Location;
  update: LocationUpdate;
  /** The coalescing key of one of the location's fields (typing in it is one undo step). */
  keyOf: (field: 'color') => string;
  /** The label field's draft (the form's, beside its other text fields). */
  label: Draft;
}

export function LocationLook({ document, location, update, keyOf, label }: LocationLookProps) {
  const ids = useId();
  const [groupsError, setGroupsError] = useState<string | null>(null);
  const key = keyOf;
  const groupById = new Map(document.groups.map((group) => [group.id, group]));
  const groupColor = location.groups.map((id) => groupById.get(id)?.color).find(Boolean) ?? null;
  const hex = useDraft(location.color ?? '', (text) => {
    const parsed = locationFields.color.safeParse(text.trim());
    if (!parsed.success) return message('Colour', parsed.error);
    return parsed.data === location.color ? null : update({ color: parsed.data }, key('color'));
  });

  const toggleGroup = (id: string, on: boolean) => {
    const groups = on ? [...location.groups.filter((g) => g !== id), id] : location.groups.filter((g) => g !== id);
    const parsed = locationFields.groups.safeParse(groups);
    if (!parsed.success) {
      setGroupsError(parsed.error.issues[0]?.code === 'too_big' ? 'A location can be in at most 50 groups' : message('Groups', parsed.error));
      return;
    }
    setGroupsError(update({ groups: parsed.data }));
  };

  return (
    <Section title="Look">
      <SelectField
        label="Marker"
        value={location.marker}
        options={MARKER_TYPES.map((type) => ({ value: type, label: MARKER_LABELS[type] }))}
        onChange={(value) => {
          const parsed = locationFields.marker.safeParse(value);
          if (parsed.success && parsed.data !== location.marker) update({ marker: parsed.data });
        }}
      />
      <fieldset className="ep-loc-fieldset">
        <legend className="field__label">Colour</legend>
        <div className="ep-loc-segmented">
          <label className="ep-loc-segmented__option">
            <input type="radio" name={`${ids}-color`} checked={location.color === null} onChange={() => update({ color: null })} />
            <span>
              <span className="ep-loc-dot" style={{ background: groupColor ?? 'transparent' }} aria-hidden="true" />
              Group’s colour
            </span>
          </label>
          <label className="ep-loc-segmented__option">
            <input
              type="radio"
              name={`${ids}-color`}
              checked={location.color !== null}
              onChange={() => update({ color: groupColor ?? document.settings.theme.accent }, key('color'))}
            />
            <span>Own colour</span>
          </label>
        </div>
        {location.color !== null ? (
          <div className="ep-loc-color">
            <input
              type="color"
              className="ep-loc-color__swatch"
              aria-label="Pick the colour"
              value={location.color.toLowerCase()}
              onChange={(event) => {
                const parsed = locationFields.color.safeParse(event.target.value);
                if (parsed.success && parsed.data !== location.color) update({ color: parsed.data }, key('color'));
              }}
            />
            <TextField
              className="ep-loc-field ep-loc-color__hex"
              label="Colour code"
              value={hex.value}
              error={hex.error}
              onChange={hex.onChange}
              onFocus={hex.onFocus}
              onBlur={hex.onBlur}
              spellCheck={false}
              autoComplete="off"
            />
          </div>
        ) : groupColor === null ? (
          <p className="ep-loc-hint">In no group with a colour: the map’s accent colour is used.</p>
        ) : null}
      </fieldset>
      <TextField
        className="ep-loc-field"
        label="Label"
        hint="Short text on the map, for text label markers."
        value={label.value}
        error={label.error}
        onChange={label.onChange}
        onFocus={label.onFocus}
        onBlur={label.onBlur}
        autoComplete="off"
      />
      <fieldset className="ep-loc-fieldset">
        <legend className="field__label">Groups</legend>
        {document.groups.length === 0 ? (
          <p className="ep-loc-hint">No groups yet. Make them in the Groups panel.</p>
        ) : (
          <ul className="ep-loc-checklist">
            {document.groups.map((group) => (
              <li key={group.id}>
                <label className="ep-loc-check">
                  <input type="checkbox" checked={location.groups.includes(group.id)} onChange={(event) => toggleGroup(group.id, event.target.checked)} />
                  <span className="ep-loc-dot" style={{ background: group.color }} aria-hidden="true" />
                  <span className="ep-loc-check__text">{group.name}</span>
                </label>
              </li>
            ))}
          </ul>
        )}
        {groupsError ? <p className="field__error">{groupsError}</p> : null}
      </fieldset>
      <label className="ep-loc-switch">
        <input type="checkbox" role="switch" checked={location.hidden} onChange={(event) => update({ hidden: event.target.checked })} />
        <span className="ep-loc-switch__track" aria-hidden="true" />
        <span className="ep-loc-switch__text">Hidden from visitors</span>
      </label>
    </Section>
  );
}
