import { useId, useState, type FormEvent } from 'react';
import { MAP_TITLE_MAX, MapTitle } from '../../../../../events/map-title';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { toApiError } from '../../../lib/api';
import { useLiveClient } from '../../../lib/live';
import { createMap } from '../api/maps-api';

/** How long to wait for the live list to show a new map before clearing the form anyway. */
export const LIST_CATCH_UP_TIMEOUT_MS = 15_000;

/**
 * Names and creates a map. The form stays busy until the live list (topic `topic`) has reached
 * the position createMap answered, so the new card is there when the form clears.
 */
export function CreateMapForm({ topic }: { topic: string }) {
  const live = useLiveClient();
  const inputId = useId();
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = MapTitle.safeParse(title);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Check the title.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const { position } = await createMap(checked.data);
      if (position) {
        // Read-your-writes: the list shows the new map once the topic reaches its position.
        await live.reached(topic, position, { signal: AbortSignal.timeout(LIST_CATCH_UP_TIMEOUT_MS) }).catch(() => undefined);
      }
      setTitle('');
    } catch (failure) {
      setError(toApiError(failure).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="create-map" onSubmit={(event) => void onSubmit(event)} aria-label="Create a map" noValidate>
      <label htmlFor={inputId} className="create-map__label">
        New map
      </label>
      <div className="create-map__row">
        <input
          id={inputId}
          className="field__input"
          name="title"
          placeholder="e.g. Head office, floor 2"
          autoComplete="off"
          maxLength={MAP_TITLE_MAX}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          disabled={busy}
          aria-invalid={error ? true : undefined}
        />
        <Button type="submit" loading={busy}>
          Create
        </Button>
      </div>
      {error ? <Alert>{error}</Alert> : null}
    </form>
  );
}
