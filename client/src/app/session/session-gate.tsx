import { use, useEffect, type ReactNode } from 'react';
import { PageSpinner } from '../../components/ui/spinner';
import { SessionRuntimeContext } from './runtime-context';

export interface SessionGateProps {
  children: ReactNode;
  /** Starts loading the page's own chunk at once, beside the runtime (not after it). */
  preload?: () => unknown;
  /** Shown while the runtime loads; the page spinner unless told. */
  fallback?: ReactNode;
}

/**
 * Renders `children` once the session's full runtime runs (see runtime-context.ts), asking for
 * it and showing `fallback` until then. It does not suspend: the runtime arrives through a state
 * change of the shell above, which a route change held in a suspended transition would wait on.
 */
export function SessionGate({ children, preload, fallback = <PageSpinner label="Loading" /> }: SessionGateProps) {
  const runtime = use(SessionRuntimeContext);
  useEffect(() => {
    if (runtime.ready) return;
    preload?.();
    void runtime.whenReady();
  }, [runtime, preload]);
  return runtime.ready ? children : fallback;
}
