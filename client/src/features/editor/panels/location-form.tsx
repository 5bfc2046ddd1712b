/**
 * One location's form in the locations panel: every field of the location, each checked with
 * the document's own schema (events/map-document.ts `locationFields`) before an edit is given.
 * A refused value stays in its field, with the reason under it, and gives no edit.
 *
 * Text fields keep a draft: each acceptable change gives a `LocationUpdated` with that field
 * alone, coalesced per field (typing a title is one undo step), and a change from outside (a
 * collaborator) replaces the draft while the field does not have the focus.
 */
import { useEffect, useRef, useState } from 'react';
import { locationFields, type Location } from '../../../../../events/map-document';
import { checkEdit, type MapEdit } from '../../../../../events/map-edits';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { EditingNotice } from '../presence';
import { TextField } from '../../../components/ui/field';
import type { EditorPanelProps } from './panel-props';
import { AreaField, message, Section, type LocationUpdate, type Patch } from './location-form-fields';
import { LocationLook } from './location-look';
import { LocationPlace } from './location-place';
import { isStoreLocation, LocationStore } from './location-store';
import { RichTextEditor } from './rich-text-editor';
import { useDraft } from './use-draft';

export { MARKER_LABELS } from './location-look';

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
  /** The map's id: a store's address is looked up through its geocoder. */
  mapId?: string;
}

export function LocationForm({ document, onEdit, location, onDeleted, focusOnOpen = false, onPickEntrance, mapId }: LocationFormProps) {
  const headingRef = useRef<HTMLHeadingElement>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);

  // Only when the form opens (the panel keys it by the location): what the prop said then.
  const [focusAtOpen] = useState(focusOnOpen);
  useEffect(() => {
    if (focusAtOpen) headingRef.current?.focus();
  }, [focusAtOpen]);

  const key = (field: keyof Patch) => `location:${location.id}:${field}`;

  /** Gives one LocationUpdated, or answers why it cannot be made. */
  const update: LocationUpdate = (changes, coalesce) => {
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
  // A place on a geographic floor is a store's (a store locator's): its details go together, the short text as its address.
  const store = isStoreLocation(document, location);
  const about = useDraft(location.about, textCommit('about', store ? 'Address' : 'Short text'));
  const label = useDraft(location.label, textCommit('label', 'Label'));
  const phone = useDraft(location.phone, textCommit('phone', 'Phone'));
  const hours = useDraft(location.hours, textCommit('hours', 'Opening hours'));
  const link = useDraft(location.link ?? '', urlCommit('link', store ? 'Website' : 'Link'));
  const image = useDraft(location.image ?? '', urlCommit('image', 'Image URL'));
  const thumbnail = useDraft(location.thumbnail ?? '', urlCommit('thumbnail', 'Thumbnail URL'));

  const remove = () => {
    setConfirmDelete(false);
    const edit: MapEdit = { type: 'LocationRemoved', id: location.id };
    if (checkEdit(document, edit)) return;
    onEdit([edit]);
    onDeleted();
  };

  return (
    <div className="ep-loc-form">
      <div className="ep-loc-form__head">
        <p className="ep-loc-form__kind">{store ? 'Store' : 'Location'}</p>
        <h3 ref={headingRef} className="ep-loc-form__title" tabIndex={-1}>
          {location.title}
        </h3>
      </div>
      <EditingNotice locationId={location.id} />

      <Section title="Content">
        <TextField className="ep-loc-field" label="Title" value={title.value} error={title.error} onChange={title.onChange} onFocus={title.onFocus} onBlur={title.onBlur} autoComplete="off" />
        {store ? null : <AreaField label="Short text" draft={about} hint="Shown in the list and when pointing at the location." />}
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

      {store ? <LocationStore document={document} location={location} mapId={mapId} update={update} address={about} phone={phone} hours={hours} link={link} /> : null}

      <LocationLook document={document} location={location} update={update} keyOf={key} label={label} />

      <LocationPlace document={document} location={location} update={update} keyOf={key} onPickEntrance={onPickEntrance} />

      {store ? null : (
        <Section title="Contact">
          <TextField className="ep-loc-field" label="Link" type="url" inputMode="url" placeholder="https://" value={link.value} error={link.error} onChange={link.onChange} onFocus={link.onFocus} onBlur={link.onBlur} autoComplete="off" />
          <TextField className="ep-loc-field" label="Phone" type="tel" value={phone.value} error={phone.error} onChange={phone.onChange} onFocus={phone.onFocus} onBlur={phone.onBlur} autoComplete="off" />
          <AreaField label="Opening hours" draft={hours} placeholder="Mon–Fri 9:00–18:00" />
        </Section>
      )}

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
