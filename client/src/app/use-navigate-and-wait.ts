import { useCallback, useEffect, useRef } from 'react';
import { useLocation, useNavigate, type NavigateOptions } from 'react-router-dom';

/**
 * `navigate`, resolving once the page went there: its location rendered, or the calling
 * component unmounted on the way (the page that called it was left). Route changes run as
 * transitions (the old page stays until the new one is loaded), so a plain `navigate` returns
 * before the page changed; code that must act only once the page is left (logging out of a
 * signed-in-only page, which would otherwise bounce to /login) waits on this instead.
 */
export function useNavigateAndWait(): (to: string, options?: NavigateOptions) => Promise<void> {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const current = useRef(pathname);
  const waiting = useRef<{ to: string; resolve: () => void } | null>(null);

  useEffect(() => {
    current.current = pathname;
    if (waiting.current && waiting.current.to === pathname) {
      waiting.current.resolve();
      waiting.current = null;
    }
  }, [pathname]);

  useEffect(
    () => () => {
      waiting.current?.resolve();
      waiting.current = null;
    },
    [],
  );

  return useCallback(
    (to: string, options?: NavigateOptions) =>
      new Promise<void>((resolve) => {
        waiting.current?.resolve();
        waiting.current = current.current === to ? null : { to, resolve };
        void navigate(to, options);
        if (!waiting.current) resolve();
      }),
    [navigate],
  );
}
