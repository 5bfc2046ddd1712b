import { useEffect, useRef, useState } from 'react';
import { MAP_TITLE_MAX, MapTitle } from '../../../../events/map-title';
import { api, toApiError } from '../../lib/api';

/** The map's title, renamed in place (saveMap); Enter or leaving the field saves, Esc reverts. */
export function TitleField({ mapId, title, editable, onSaved, onError }: { mapId: string; title: string; editable: boolean; onSaved: (title: string) => void; onError: (message: string) => void }) {
  const [draft, setDraft] = useState(title);
  const [busy, setBusy] = useState(false);
  const focused = useRef(false);
  useEffect(() => {
    if (!focused.current) setDraft(title);
  }, [title]);
  if (!editable) return <h1 className="ed-bar__title ed-bar__title--static">{title}</h1>;

  const commit = async () => {
    const parsed = MapTitle.safeParse(draft);
    if (!parsed.success) {
      onError(parsed.error.issues[0]?.message ?? 'Title is not valid.');
      setDraft(title);
      return;
    }
    if (parsed.data === title) return;
    setBusy(true);
    try {
      await api.callFunction('saveMap', { id: mapId, title: parsed.data });
      onSaved(parsed.data);
    } catch (error) {
      onError(toApiError(error).message);
      setDraft(title);
    } finally {
      setBusy(false);
    }
  };
  return (
    <h1 className="ed-bar__title">
      <input
        className="ed-bar__title-input"
        aria-label="Map title"
        value={draft}
        maxLength={MAP_TITLE_MAX}
        aria-busy={busy}
        onFocus={() => (focused.current = true)}
        onChange={(event) => setDraft(event.target.value)}
        onBlur={() => {
          focused.current = false;
          void commit();
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') event.currentTarget.blur();
          if (event.key === 'Escape') {
            setDraft(title);
            event.currentTarget.blur();
          }
        }}
      />
    </h1>
  );
}
