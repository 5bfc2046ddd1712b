/**
 * Where the user's work stands, always in view: saved, saving, offline (kept and sent when the
 * network is back), or, when exploring someone else's map, only in this tab.
 */
import { Spinner } from '../../components/ui/spinner';
import type { SaveStatus as Status } from './editor-session';
import { EditorIcon } from './editor-icons';

export function SaveStatus({ status, unsaved }: { status: Status; unsaved: number }) {
  const text =
    status === 'saved'
      ? 'All changes saved'
      : status === 'saving'
        ? 'Saving…'
        : status === 'offline'
          ? `Offline: ${unsaved} ${unsaved === 1 ? 'change' : 'changes'} will be saved when you are back online`
          : 'Changes stay in this tab';
  const short = status === 'saved' ? 'Saved' : status === 'saving' ? 'Saving…' : status === 'offline' ? 'Offline' : 'Not saved';
  return (
    <p className="ed-status" data-status={status} role="status" aria-live="polite" title={text}>
      {status === 'saving' ? <Spinner size="sm" label="" /> : <EditorIcon name={status === 'saved' ? 'check' : status === 'offline' ? 'cloudOff' : 'edit'} size={16} />}
      <span className="ed-status__long">{text}</span>
      <span className="ed-status__short" aria-hidden="true">
        {short}
      </span>
    </p>
  );
}
