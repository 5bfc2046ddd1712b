/**
 * A map's state in the admin's table, changeable in place: the new state is sent
 * (`adminUpdateMap`), the select is busy meanwhile, and a refusal puts the old state back with
 * the reason under it.
 */
import { useState } from 'react';
import { toApiError } from '../../../lib/api';
import { setMapState } from '../api/admin-maps-api';
import type { StateOption } from './admin-maps-screen';

const STATES = [0, 1, 2, 3, 9] as const;
type StateValue = (typeof STATES)[number];
const isState = (value: number): value is StateValue => (STATES as readonly number[]).includes(value);

export function StateSelect({ mapId, title, state, options }: { mapId: string; title: string; state: number; options: readonly StateOption[] }) {
  const [value, setValue] = useState(state);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const tone = options.find((option) => option.value === value)?.tone ?? 'neutral';

  const change = async (next: number) => {
    if (!isState(next) || next === value) return;
    const previous = value;
    setValue(next);
    setBusy(true);
    setError(null);
    try {
      await setMapState(mapId, next);
    } catch (failure) {
      setValue(previous);
      setError(toApiError(failure).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="admin-state-select">
      <select
        className={`admin-state admin-state--${tone}`}
        aria-label={`State of ${title}`}
        value={value}
        disabled={busy}
        aria-busy={busy || undefined}
        onChange={(event) => void change(Number(event.target.value))}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error ? (
        <p className="admin-state-select__error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
