/**
 * One location's form in the locations panel: every field of the location, each checked with
 * the document's own schema (events/map-document.ts `locationFields`) before an edit is given.
 * A refused value stays in its field, with the reason under it, and gives no edit.
 *
 * Text fields keep a draft: each acceptable change gives a `LocationUpdated` with that field
 * alone, coalesced per field (typing a title is one undo step), and a change from outside (a
 * collaborator) replaces the draft while the field does not have the focus.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { z } from 'zod';
import { locationFields, MARKER_TYPES, type Location } from '../../../../../events/map-document';
import { checkEdit, type LocationPatch, type MapEdit } from '../../../../../events/map-edits';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { EditingNotice } from '../presence';
import { TextField } from '../../../components/ui/field';
import type { EditorPanelProps } from './panel-props';
import { LocationLatLng } from './location-latlng';
import { LocationEntrances } from '../paths/location-entrances';
import { RichTextEditor } from './rich-text-editor';
import { useDraft, type Draft } from './use-draft';
import { usePlaceOnMap } from '../place-on-map';

type Patch = z.infer<typeof LocationPatch>;
type TextKey = 'title' | 'about' | 'phone' | 'hours' | 'label';
type UrlKey = 'link' | 'image' | 'thumbnail';

export interface LocationFormProps extends EditorPanelProps {
  location: Location;
  /** Called after "Delete location" was confirmed and its edit given. */
  onDeleted(): void;
  /** Moves the focus to the form's heading when it opens (it was opened from the list). */
  focusOnOpen?: boolean;
  /** Arms a click on a path point of the map that becomes an entrance. */
  onPickEntrance?: () => void;
}

export const MARKER_LABELS: Record<Location['marker'], string> = {
  circle: 'Circle',
  dot: 'Dot',
  pin: 'Pin',
  label: 'Text label',
  thumbnail: 'Thumbnail image',
  hidden: 'No marker',
};

/** The first message of a failed parse, after the field's name: "Title is required". */
function message(label: string, error: z.ZodError): string {
  return `${label} ${error.issues[0]?.message ?? 'is not valid'}`;
}

interface AreaFieldProps {
  label: string;
  draft: Draft;
  rows?: number;
  hint?: ReactNode;
  placeholder?: string;
}

/** A labelled textarea, shaped like the shared TextField. */
function AreaField({ label, draft, rows = 2, hint, placeholder }: AreaFieldProps) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : null, draft.error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="field ep-loc-field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <textarea
        id={id}
        className="field__input ep-loc-textarea"
        rows={rows}
        value={draft.value}
        placeholder={placeholder}
        aria-invalid={draft.error ? true : undefined}
        aria-describedby={describedBy}
        onChange={draft.onChange}
        onFocus={draft.onFocus}
        onBlur={draft.onBlur}
      />
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
      {draft.error ? (
        <p id={`${id}-error`} className="field__error">
          {draft.error}
        </p>
      ) : null}
    </div>
  );
}

interface SelectFieldProps {
  label: string;
  value: string;
  options: ReadonlyArray<{ value: string; label: string }>;
  onChange(value: string): void;
  hint?: ReactNode;
}

function SelectField({ label, value, options, onChange, hint }: SelectFieldProps) {
  const id = useId();
  return (
    <div className="field ep-loc-field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <select id={id} className="field__input ep-loc-select" value={value} aria-describedby={hint ? `${id}-hint` : undefined} onChange={(event) => onChange(event.target.value)}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {hint ? (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <section className="ep-loc-section" aria-labelledby={id}>
      <h4 id={id} className="ep-loc-section__title">
        {title}
      </h4>
      <div className="ep-loc-section__body">{children}</div>
    </section>
  );
}

function formatCoordinate(value: number): string {
  return String(Math.round(value * 10) / 10);
}

export function LocationForm({ document, onEdit, location, onDeleted, focusOnOpen = false, onPickEntrance }: LocationFormProps) {
  const ids = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [groupsError, setGroupsError] = useState<string | null>(null);

  // Only when the form opens (the panel keys it by the location): what the prop said then.
  const [focusAtOpen] = useState(focusOnOpen);
  useEffect(() => {
    if (focusAtOpen) headingRef.current?.focus();
  }, [focusAtOpen]);

  const key = (field: keyof Patch) => `location:${location.id}:${field}`;

  /** Gives one LocationUpdated, or answers why it cannot be made. */
  const update = (changes: Patch, coalesce?: string): string | null => {
    const edit: MapEdit = { type: 'LocationUpdated', id: location.id, changes };
    const problem = checkEdit(document, edit);
    if (problem) return problem;
    onEdit([edit], coalesce === undefined ? undefined : { coalesce });
    return null;
  };

  const textCommit = (field: TextKey, label: string) => (text: string) => {
    const parsed = locationFields[field].safeParse(text);
    if (!parsed.success) return message(label, parsed.error);
    return parsed.data === location[field] ? null : update({ [field]: parsed.data } as Patch, key(field));
  };

  const urlCommit = (field: UrlKey, label: string) => (text: string) => {
    const parsed = locationFields[field].safeParse(text.trim() === '' ? null : text);
    if (!parsed.success) return message(label, parsed.error);
    return parsed.data === location[field] ? null : update({ [field]: parsed.data } as Patch, key(field));
  };

  const title = useDraft(location.title, textCommit('title', 'Title'));
  const about = useDraft(location.about, textCommit('about', 'Short text'));
  const label = useDraft(location.label, textCommit('label', 'Label'));
  const phone = useDraft(location.phone, textCommit('phone', 'Phone'));
  const hours = useDraft(location.hours, textCommit('hours', 'Opening hours'));
  const link = useDraft(location.link ?? '', urlCommit('link', 'Link'));
  const image = useDraft(location.image ?? '', urlCommit('image', 'Image URL'));
  const thumbnail = useDraft(location.thumbnail ?? '', urlCommit('thumbnail', 'Thumbnail URL'));

  const zoom = useDraft(location.zoom === null ? '' : String(location.zoom), (text) => {
    const trimmed = text.trim();
    const value = trimmed === '' ? null : Number(trimmed.replace(',', '.'));
    if (value !== null && !Number.isFinite(value)) return 'Zoom level must be a number, like 2 or 1.5';
    const parsed = locationFields.zoom.safeParse(value);
    if (!parsed.success) return 'Zoom level must be between 0.1 and 64';
    return parsed.data === location.zoom ? null : update({ zoom: parsed.data }, key('zoom'));
  });

  const element = useDraft(location.element ?? '', (text) => {
    if (text.trim() === '') return 'Region id is required (or unlink the region)';
    const parsed = locationFields.element.safeParse(text.trim());
    if (!parsed.success) return message('Region id', parsed.error);
    if (parsed.data === location.element) return null;
    // The edit check names the field first ("changes.element: …"): the field here says which.
    return update({ element: parsed.data }, key('element'))?.replace(/^changes\.element: t/, 'T') ?? null;
  });
  const [showElement, setShowElement] = useState(location.element !== null);
  useEffect(() => {
    if (location.element !== null) setShowElement(true);
  }, [location.element]);

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

  const remove = () => {
    setConfirmDelete(false);
    const edit: MapEdit = { type: 'LocationRemoved', id: location.id };
    if (checkEdit(document, edit)) return;
    onEdit([edit]);
    onDeleted();
  };

  const placed = location.position !== null;
  const placeOnMap = usePlaceOnMap();
  const floor = document.layers.find((layer) => layer.id === location.layer);
  const floorSize = floor?.file ? { width: floor.file.width, height: floor.file.height } : document.settings.size;

  return (
    <div className="ep-loc-form">
      <div className="ep-loc-form__head">
        <p className="ep-loc-form__kind">Location</p>
        <h3 ref={headingRef} className="ep-loc-form__title" tabIndex={-1}>
          {location.title}
        </h3>
      </div>
      <EditingNotice locationId={location.id} />

      <Section title="Content">
        <TextField className="ep-loc-field" label="Title" value={title.value} error={title.error} onChange={title.onChange} onFocus={title.onFocus} onBlur={title.onBlur} autoComplete="off" />
        <AreaField label="Short text" draft={about} hint="Shown in the list and when pointing at the location." />
        <RichTextEditor
          label="Description"
          value={location.description}
          placeholder="What visitors see when they open the location"
          validate={(html) => {
            const parsed = locationFields.description.safeParse(html);
            return parsed.success ? null : `${message('Description', parsed.error)} (now ${html.length.toLocaleString('en')})`;
          }}
          onChange={(html) => update({ description: html }, key('description'))}
        />
      </Section>

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

      <Section title="Place">
        <SelectField
          label="Floor"
          value={location.layer}
          options={document.layers.map((layer) => ({ value: layer.id, label: layer.name }))}
          onChange={(layer) => {
            if (layer !== location.layer) update({ layer });
          }}
          hint={document.layers.length > 1 ? 'Moves the location to that floor, at the same spot.' : undefined}
        />
        <div className="ep-loc-position">
          <span className="field__label" id={`${ids}-position`}>
            Position
          </span>
          <div className="ep-loc-position__row">
            <output className="ep-loc-position__value" aria-labelledby={`${ids}-position`}>
              {placed ? `x ${formatCoordinate(location.position!.x)}, y ${formatCoordinate(location.position!.y)}` : location.element ? 'Its region on the floor plan' : 'Not placed on the map'}
            </output>
            {placeOnMap ? (
              <button type="button" className="ep-loc-button" onClick={() => placeOnMap(location.id)}>
                {placed ? 'Move on map' : location.element ? 'Add a pin' : 'Place on map'}
              </button>
            ) : null}
            {placed ? (
              <button type="button" className="ep-loc-button" onClick={() => update({ position: null })}>
                Remove from map
              </button>
            ) : null}
          </div>
        </div>
        <LocationEntrances
          document={document}
          location={location}
          anchor={location.position}
          onChange={(entrances) => update({ entrances })}
          {...(onPickEntrance ? { onPick: onPickEntrance } : {})}
        />
        {floor?.geo && (placed || !location.element) ? (
          <LocationLatLng location={location} geo={floor.geo} size={floorSize} onMove={(position, coalesce) => update({ position }, coalesce)} />
        ) : null}
        {!showElement && floor?.file?.kind === 'svg' ? (
          <button type="button" className="ep-loc-button ep-loc-link" onClick={() => setShowElement(true)}>
            Link a region of the drawing
          </button>
        ) : null}
        {showElement ? (
          <div className="ep-loc-element">
            <TextField
              className="ep-loc-field"
              label="Region id"
              hint="The id of its shape in the floor plan (SVG)."
              value={element.value}
              error={element.error}
              onChange={element.onChange}
              onFocus={element.onFocus}
              onBlur={element.onBlur}
              spellCheck={false}
              autoComplete="off"
            />
            {location.element !== null ? (
              <button
                type="button"
                className="ep-loc-button"
                onClick={() => {
                  if (update({ element: null }) === null) setShowElement(false);
                }}
              >
                Unlink region
              </button>
            ) : null}
          </div>
        ) : null}
        <TextField
          className="ep-loc-field"
          label="Zoom level"
          hint="How close the map zooms in when it is opened. Empty: the map decides."
          inputMode="decimal"
          value={zoom.value}
          error={zoom.error}
          onChange={zoom.onChange}
          onFocus={zoom.onFocus}
          onBlur={zoom.onBlur}
          autoComplete="off"
        />
      </Section>

      <Section title="Contact">
        <TextField className="ep-loc-field" label="Link" type="url" inputMode="url" placeholder="https://" value={link.value} error={link.error} onChange={link.onChange} onFocus={link.onFocus} onBlur={link.onBlur} autoComplete="off" />
        <TextField className="ep-loc-field" label="Phone" type="tel" value={phone.value} error={phone.error} onChange={phone.onChange} onFocus={phone.onFocus} onBlur={phone.onBlur} autoComplete="off" />
        <AreaField label="Opening hours" draft={hours} placeholder="Mon–Fri 9:00–18:00" />
      </Section>

      <Section title="Pictures">
        <TextField className="ep-loc-field" label="Image URL" type="url" inputMode="url" placeholder="https://" value={image.value} error={image.error} onChange={image.onChange} onFocus={image.onFocus} onBlur={image.onBlur} autoComplete="off" />
        <TextField
          className="ep-loc-field"
          label="Thumbnail URL"
          type="url"
          inputMode="url"
          placeholder="https://"
          hint="A small picture, for thumbnail markers and the list."
          value={thumbnail.value}
          error={thumbnail.error}
          onChange={thumbnail.onChange}
          onFocus={thumbnail.onFocus}
          onBlur={thumbnail.onBlur}
          autoComplete="off"
        />
      </Section>

      <div className="ep-loc-danger">
        <button type="button" className="ep-loc-button ep-loc-button--danger" onClick={() => setConfirmDelete(true)}>
          Delete location
        </button>
      </div>

      <ConfirmDialog open={confirmDelete} title={`Delete “${location.title}”?`} confirmLabel="Delete location" onConfirm={remove} onCancel={() => setConfirmDelete(false)}>
        <p>It disappears from the map for everyone. You can undo this.</p>
      </ConfirmDialog>
    </div>
  );
}
