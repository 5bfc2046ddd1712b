/**
 * Whether the session's full runtime (the auth machine, the live connection: zod and XState)
 * is running yet. The landing and marketing pages do without it: the header needs only who is
 * signed in, which the app shell asks with a plain request (first-requests.ts). A page that needs
 * more waits for it behind SessionGate (session-gate.tsx), which asks for it.
 */
import { createContext } from 'react';

export interface SessionRuntimeControl {
  /** The session and live contexts above are the full runtime's. */
  ready: boolean;
  /** Starts loading the runtime (once); resolves when `ready` is true in context. */
  whenReady(): Promise<void>;
}

/** Without a shell above (a page rendered on its own with SessionProvider), everything is ready. */
export const SessionRuntimeContext = createContext<SessionRuntimeControl>({ ready: true, whenReady: () => Promise.resolve() });
