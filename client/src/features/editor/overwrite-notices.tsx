/**
 * The collaborators' writes that overwrote what this tab had just changed, said in place of a
 * silent jump: "Ben changed the title of “Cafe” to “Café Nord”" (editor-session.ts keeps them,
 * overwrites.ts decides). Each goes away on its own after a while, or when dismissed.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { EditorIcon } from './editor-icons';
import type { EditorSession } from './editor-session';
import './overwrite-notices.css';

/** Long enough to read a sentence twice. */
const SHOWN_MS = 8_000;

export function OverwriteNotices({ session }: { session: EditorSession }) {
  const { notices } = useSyncExternalStore(session.subscribe, session.getSnapshot);
  useEffect(() => {
    if (notices.length === 0) return;
    const timers = notices.map((notice) => setTimeout(() => session.dismissNotice(notice.id), SHOWN_MS));
    return () => timers.forEach(clearTimeout);
  }, [notices, session]);
  return (
    <div className="ed-overwrites" role="status" aria-live="polite">
      {notices.map((notice) => (
        <p key={notice.id} className="ed-overwrites__notice">
          <span>{notice.text}</span>
          <button type="button" className="ed-icon-button" aria-label="Dismiss" onClick={() => session.dismissNotice(notice.id)}>
            <EditorIcon name="close" size={14} />
          </button>
        </p>
      ))}
    </div>
  );
}
