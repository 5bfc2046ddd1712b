/**
 * The share dialog's list and its changes (share-dialog.tsx): the members read when the dialog
 * opens, each change busy while the server decides and its refusal kept in place by the key of
 * what was pending, then read back once the list shows it; a toast for what went through. The
 * element that started a change gets focus back afterwards (it was disabled meanwhile), else
 * the invite field, else Done.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import type { MapMembers } from '../../../../../events/sharing-api';
import { toApiError } from '../../../lib/api';
import { getMapMembers, getMapMembersShowing } from '../api/sharing-api';
import { keyOf, type Pending } from './share-pending';

const TOAST_MS = 4_000;

export function useShareMembers(mapId: string, open: boolean, emailRef: RefObject<HTMLInputElement | null>, closeRef: RefObject<HTMLButtonElement | null>) {
  const [members, setMembers] = useState<MapMembers | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [busy, setBusy] = useState<ReadonlySet<string>>(() => new Set());
  /** Errors shown in place, by the key of what failed. */
  const [errors, setErrors] = useState<Readonly<Record<string, string>>>({});
  const [toast, setToast] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);

  /**
   * Reads the list again; with `shows`, only once it shows a change just made (until then, what
   * is on screen already shows it).
   */
  const refresh = useCallback(
    async (shows?: (members: MapMembers) => boolean) => {
      const signal = controller.current?.signal;
      const options = signal ? { signal } : {};
      try {
        const next = shows ? await getMapMembersShowing(mapId, shows, undefined, options) : (await getMapMembers(mapId, undefined, options)).result;
        if (next && !signal?.aborted) {
          setMembers(next);
          setLoadError(null);
        }
      } catch (error) {
        if (!signal?.aborted && !shows) setLoadError(toApiError(error).message);
      }
    },
    [mapId],
  );

  useEffect(() => {
    if (!open) return;
    controller.current = new AbortController();
    setErrors({});
    void refresh();
    return () => controller.current?.abort();
  }, [open, refresh]);

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setToast(null), TOAST_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  /**
   * Runs one change: busy while the server decides, its error in place; then the list is read
   * back once it shows the change (`change` answers how to tell).
   */
  const run = async (pending: Pending, change: () => Promise<(members: MapMembers) => boolean>, done?: string) => {
    const key = keyOf(pending);
    // The control that started it is disabled meanwhile, which takes focus from it: give it back.
    const had = window.document.activeElement instanceof HTMLElement ? window.document.activeElement : null;
    setBusy((keys) => new Set(keys).add(key));
    setErrors(({ [key]: _gone, ...rest }) => rest);
    try {
      const shows = await change();
      if (done) setToast(done);
      void refresh(shows);
      return true;
    } catch (error) {
      setErrors((current) => ({ ...current, [key]: toApiError(error).message }));
      return false;
    } finally {
      setBusy((keys) => {
        const next = new Set(keys);
        next.delete(key);
        return next;
      });
      setTimeout(() => {
        const active = window.document.activeElement;
        if (active && active !== window.document.body) return;
        if (had?.isConnected && !had.matches(':disabled')) had.focus();
        else if (emailRef.current) emailRef.current.focus();
        else closeRef.current?.focus();
      });
    }
  };

  return { members, setMembers, loadError, busy, errors, toast, refresh, run };
}
