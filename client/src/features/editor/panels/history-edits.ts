/**
 * Renaming and deleting history entries, optimistically (spec §4): the list changes at once,
 * and a call that fails takes its change back and says why. The server's list (from the map
 * data and every live snapshot) stays the truth; pending changes are laid over it until the
 * server's list shows them (or two snapshots went by without: someone else changed it since).
 */
import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { HistoryEntry } from '../../../../../events/read-models';

export type PendingHistoryEdit = {
  op: number;
  id: string;
  /** The call answered; kept until the server's list shows the change. */
  done: boolean;
  /** Server lists seen since the call answered without showing the change. */
  seen: number;
} & ({ kind: 'rename'; name: string } | { kind: 'delete' });

export interface HistoryEditsState {
  server: readonly HistoryEntry[];
  pending: readonly PendingHistoryEdit[];
  error: string | null;
}

export type HistoryEditsAction =
  | { type: 'server'; entries: readonly HistoryEntry[] }
  | { type: 'rename'; op: number; id: string; name: string }
  | { type: 'delete'; op: number; id: string }
  | { type: 'succeeded'; op: number }
  | { type: 'failed'; op: number; message: string }
  | { type: 'dismiss' };

/** After this many server lists without our change, a finished change gives way to the server's. */
const GIVE_WAY_AFTER = 2;

export function initialHistoryEdits(server: readonly HistoryEntry[]): HistoryEditsState {
  return { server, pending: [], error: null };
}

/** An entry's name in words: its own, or when it was made. */
export function entryTitle(entry: Pick<HistoryEntry, 'name' | 'created'>, format: (iso: string) => string): string {
  return entry.name ?? `Version of ${format(entry.created)}`;
}

function reflected(edit: PendingHistoryEdit, server: readonly HistoryEntry[]): boolean {
  const entry = server.find((candidate) => candidate.id === edit.id);
  return edit.kind === 'delete' ? entry === undefined : entry === undefined || entry.name === edit.name;
}

export function historyEditsReducer(state: HistoryEditsState, action: HistoryEditsAction): HistoryEditsState {
  switch (action.type) {
    case 'server': {
      const pending = state.pending
        .map((edit) => (edit.done && !reflected(edit, action.entries) ? { ...edit, seen: edit.seen + 1 } : edit))
        .filter((edit) => !(edit.done && (reflected(edit, action.entries) || edit.seen >= GIVE_WAY_AFTER)));
      return { ...state, server: action.entries, pending };
    }
    case 'rename':
    case 'delete': {
      if (!visibleEntries(state).some((entry) => entry.id === action.id)) return state;
      const edit: PendingHistoryEdit =
        action.type === 'rename'
          ? { op: action.op, id: action.id, done: false, seen: 0, kind: 'rename', name: action.name }
          : { op: action.op, id: action.id, done: false, seen: 0, kind: 'delete' };
      return { ...state, pending: [...state.pending, edit], error: null };
    }
    case 'succeeded': {
      const pending = state.pending
        .map((edit) => (edit.op === action.op ? { ...edit, done: true } : edit))
        // Already in the server's list (its snapshot came before the answer): nothing to hold.
        .filter((edit) => !(edit.op === action.op && reflected(edit, state.server)));
      return { ...state, pending };
    }
    case 'failed': {
      if (!state.pending.some((edit) => edit.op === action.op)) return state;
      return { ...state, pending: state.pending.filter((edit) => edit.op !== action.op), error: action.message };
    }
    case 'dismiss':
      return state.error === null ? state : { ...state, error: null };
  }
}

/** The entries as the user sees them: the server's, with the pending changes on top, oldest first. */
export function visibleEntries(state: HistoryEditsState): HistoryEntry[] {
  let entries = [...state.server];
  for (const edit of state.pending) {
    if (edit.kind === 'delete') entries = entries.filter((entry) => entry.id !== edit.id);
    else entries = entries.map((entry) => (entry.id === edit.id ? { ...entry, name: edit.name } : entry));
  }
  return entries;
}

export interface HistoryCalls {
  rename(id: string, name: string): Promise<unknown>;
  remove(id: string): Promise<unknown>;
}

/**
 * The list of entries with optimistic rename and delete. `describe` names an entry in error
 * messages; `errorOf` turns a failure into words.
 */
export function useHistoryEdits(server: readonly HistoryEntry[], calls: HistoryCalls, describe: (entry: HistoryEntry) => string, errorOf: (error: unknown) => string) {
  const [state, dispatch] = useReducer(historyEditsReducer, server, initialHistoryEdits);
  const nextOp = useRef(0);
  const stateRef = useRef(state);
  stateRef.current = state;

  useEffect(() => {
    dispatch({ type: 'server', entries: server });
  }, [server]);

  const run = useCallback(
    (kind: 'rename' | 'delete', id: string, name: string, call: () => Promise<unknown>) => {
      const entry = visibleEntries(stateRef.current).find((candidate) => candidate.id === id);
      if (!entry) return;
      const op = ++nextOp.current;
      dispatch(kind === 'rename' ? { type: 'rename', op, id, name } : { type: 'delete', op, id });
      call().then(
        () => dispatch({ type: 'succeeded', op }),
        (error: unknown) =>
          dispatch({ type: 'failed', op, message: kind === 'rename' ? `Could not rename “${describe(entry)}” to “${name}”: ${errorOf(error)}` : `Could not delete “${describe(entry)}”: ${errorOf(error)}` }),
      );
    },
    [describe, errorOf],
  );

  const callsRef = useRef(calls);
  callsRef.current = calls;
  const rename = useCallback((id: string, name: string) => run('rename', id, name, () => callsRef.current.rename(id, name)), [run]);
  const remove = useCallback((id: string) => run('delete', id, '', () => callsRef.current.remove(id)), [run]);
  const dismissError = useCallback(() => dispatch({ type: 'dismiss' }), []);

  return { entries: visibleEntries(state), error: state.error, rename, remove, dismissError };
}
