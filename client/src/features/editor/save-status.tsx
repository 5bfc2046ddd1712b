/**
 * Where the user's work stands, always in view: saved, saving, offline ("Offline, 3 changes
 * waiting": kept on this device and sent when the network is back), or, when exploring someone
 * else's map, only in this tab.
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
          ? `Offline, ${unsaved} ${unsaved === 1 ? 'change' : 'changes'} waiting`
          : 'Changes stay in this tab';
  // The long line is short on purpose (it is always in view); the tooltip says what happens next.
  const title = status === 'offline' ? `${text}: kept on this device and saved when you are back online` : text;
  const short = status === 'saved' ? 'Saved' : status === 'saving' ? 'Saving…' : status === 'offline' ? `Offline · ${unsaved}` : 'Not saved';
  return (
    <p className="ed-status" data-status={status} role="status" aria-live="polite" title={title}>
      {status === 'saving' ? <Spinner size="sm" label="" /> : <EditorIcon name={status === 'saved' ? 'check' : status === 'offline' ? 'cloudOff' : 'edit'} size={16} />}
      <span className="ed-status__long">{text}</span>
      <span className="ed-status__short" aria-hidden="true">
        {short}
      </span>
    </p>
  );
}
