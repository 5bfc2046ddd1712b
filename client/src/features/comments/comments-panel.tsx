/**
 * The editor's Comments panel: "Add comment" (pin it to a point or a location, then write),
 * the threads (open or resolved, newest activity first, numbered like their pins), and the
 * selected thread: its comments, a reply box with mentions, resolve or reopen, edit one's own
 * comment, delete (one's own; the owner anyone's) after a confirmation. Live: what anyone
 * writes shows here at once.
 */
import { useEffect, useId, useState, useSyncExternalStore } from 'react';
import type { CommentAnchor, MapComment, MapCommentThread } from '../../../../events/comments-api';
import type { MapDocument } from '../../../../events/map-document';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { formatRelative } from '../../utils/format-date';
import { initialsOf } from '../../utils/initials';
import { CommentComposer } from './comment-composer';
import type { CommentsController } from './comments-controller';
import './comments.css';

export interface CommentsPanelProps {
  controller: CommentsController;
  document: MapDocument;
  /** The location selected in the editor: "Comment on it" pins a thread to it. */
  selectedLocationId: string | null;
  /** Brings a thread's pin into view (its floor, centred; on a phone the sheet steps aside). */
  onShowAnchor: (anchor: CommentAnchor) => void;
  /** Frees the map for a click (on a phone the sheet hides while a place is picked). */
  onHidePanel: () => void;
}

/** Where a thread is pinned, in words. */
export function anchorLabel(anchor: CommentAnchor, document: MapDocument): string {
  if (anchor.kind === 'location') {
    const location = document.locations.find((candidate) => candidate.id === anchor.locationId);
    return location ? location.title : 'a location since removed';
  }
  const layer = document.layers.find((candidate) => candidate.id === anchor.layer);
  return layer ? `a point on ${layer.name}` : 'a point on a floor since removed';
}

export function CommentsPanel({ controller, document, selectedLocationId, onShowAnchor, onHidePanel }: CommentsPanelProps) {
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  const { threads, numbers, filter, selectedId, mode, people, error } = snapshot;
  const ids = useId();
  const selectedLocation = selectedLocationId ? document.locations.find((location) => location.id === selectedLocationId) ?? null : null;

  const open = threads?.filter((thread) => !thread.resolved) ?? [];
  const resolved = threads?.filter((thread) => thread.resolved) ?? [];
  const shown = filter === 'open' ? open : resolved;

  return (
    <div className="cm-panel">
      {error ? (
        <div className="cm-alert" role="alert">
          <span>{error}</span>
          <button type="button" className="cm-link" onClick={() => controller.dismissError()}>
            Dismiss
          </button>
        </div>
      ) : null}

      {mode.kind === 'picking' ? (
        <div className="cm-callout" role="status">
          <p>Click the map where your comment belongs, or click a location to pin it there.</p>
          <div className="cm-row">
            {selectedLocation ? (
              <button type="button" className="cm-button" onClick={() => controller.pin({ kind: 'location', locationId: selectedLocation.id })}>
                Pin to “{selectedLocation.title}”
              </button>
            ) : null}
            <button type="button" className="cm-button" onClick={() => controller.cancel()}>
              Cancel
            </button>
          </div>
        </div>
      ) : mode.kind === 'drafting' ? (
        <section className="cm-card cm-card--draft" aria-labelledby={`${ids}-draft`}>
          <h3 id={`${ids}-draft`} className="cm-card__title">
            New comment on {anchorLabel(mode.anchor, document)}
          </h3>
          <CommentComposer
            people={people}
            label="Your comment"
            placeholder="Ask a question or leave a note…"
            submitLabel="Post"
            autoFocus
            onSubmit={(body, mentions) => controller.add(body, mentions)}
            onCancel={() => controller.cancel()}
          />
        </section>
      ) : (
        <div className="cm-row">
          <button
            type="button"
            className="cm-button cm-button--primary"
            onClick={() => {
              controller.startPicking();
              onHidePanel();
            }}
          >
            Add comment
          </button>
          {selectedLocation ? (
            <button type="button" className="cm-button" onClick={() => controller.pin({ kind: 'location', locationId: selectedLocation.id })}>
              Comment on “{selectedLocation.title}”
            </button>
          ) : null}
        </div>
      )}

      <div className="cm-filter" role="group" aria-label="Show threads">
        <button type="button" aria-pressed={filter === 'open'} onClick={() => controller.setFilter('open')}>
          Open <span className="cm-count">{open.length}</span>
        </button>
        <button type="button" aria-pressed={filter === 'resolved'} onClick={() => controller.setFilter('resolved')}>
          Resolved <span className="cm-count">{resolved.length}</span>
        </button>
      </div>

      {threads === null ? (
        <p className="cm-empty">Loading comments…</p>
      ) : shown.length === 0 ? (
        <p className="cm-empty">{filter === 'open' ? 'No open comments. Add one to ask a question or leave a note on the map.' : 'No resolved comments yet.'}</p>
      ) : (
        <ol className="cm-threads" aria-label={filter === 'open' ? 'Open threads' : 'Resolved threads'}>
          {shown.map((thread) => (
            <li key={thread.threadId}>
              {thread.threadId === selectedId ? (
                <ThreadView
                  thread={thread}
                  number={numbers.get(thread.threadId) ?? 0}
                  controller={controller}
                  document={document}
                  onShowAnchor={onShowAnchor}
                />
              ) : (
                <ThreadSummary thread={thread} number={numbers.get(thread.threadId) ?? 0} document={document} onOpen={() => controller.select(thread.threadId)} />
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

function Avatar({ name }: { name: string }) {
  return (
    <span className="cm-avatar" aria-hidden="true">
      {initialsOf(name)}
    </span>
  );
}

function ThreadSummary({ thread, number, document, onOpen }: { thread: MapCommentThread; number: number; document: MapDocument; onOpen: () => void }) {
  const first = thread.comments.find((comment) => !comment.deleted) ?? thread.comments[0]!;
  const replies = thread.comments.length - 1;
  return (
    <button type="button" className="cm-summary" onClick={onOpen}>
      <span className="cm-number" data-resolved={thread.resolved || undefined}>
        <span className="cm-sr">Thread </span>
        {number}
      </span>
      <span className="cm-summary__main">
        <span className="cm-meta">
          <strong>{first.author.displayName}</strong> · {formatRelative(thread.lastActivity)} · on {anchorLabel(thread.anchor, document)}
        </span>
        <span className="cm-summary__body">{first.body || 'Comment deleted'}</span>
        {replies > 0 ? <span className="cm-meta">{replies === 1 ? '1 reply' : `${replies} replies`}</span> : null}
      </span>
    </button>
  );
}

function ThreadView({
  thread,
  number,
  controller,
  document,
  onShowAnchor,
}: {
  thread: MapCommentThread;
  number: number;
  controller: CommentsController;
  document: MapDocument;
  onShowAnchor: (anchor: CommentAnchor) => void;
}) {
  const snapshot = useSyncExternalStore(controller.subscribe, controller.getSnapshot);
  const [editing, setEditing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<MapComment | null>(null);
  const [busy, setBusy] = useState(false);
  const titleId = useId();
  useEffect(() => {
    if (editing && !thread.comments.some((comment) => comment.commentId === editing && !comment.deleted)) setEditing(null);
  }, [editing, thread]);

  return (
    <article className="cm-card cm-card--open" aria-labelledby={titleId}>
      <header className="cm-card__head">
        <span className="cm-number cm-number--selected" data-resolved={thread.resolved || undefined}>
          {number}
        </span>
        <h3 id={titleId} className="cm-card__title">
          Thread {number} on {anchorLabel(thread.anchor, document)}
          {thread.resolved ? <span className="cm-badge">Resolved{thread.resolvedBy ? ` by ${thread.resolvedBy.displayName}` : ''}</span> : null}
        </h3>
        <button type="button" className="cm-link" onClick={() => controller.select(null)} aria-label={`Close thread ${number}`}>
          Close
        </button>
      </header>
      <div className="cm-row">
        <button type="button" className="cm-button" onClick={() => onShowAnchor(thread.anchor)}>
          Show on map
        </button>
        {thread.resolved ? (
          <button type="button" className="cm-button" onClick={() => void controller.reopen(thread.threadId)}>
            Reopen
          </button>
        ) : (
          <button type="button" className="cm-button" onClick={() => void controller.resolve(thread.threadId)}>
            Resolve
          </button>
        )}
      </div>
      <ol className="cm-comments" aria-label={`Comments in thread ${number}`}>
        {thread.comments.map((comment) => {
          const mine = comment.author.uid === controller.me;
          return (
            <li key={comment.commentId} className="cm-comment" data-deleted={comment.deleted || undefined}>
              <Avatar name={comment.author.displayName} />
              <div className="cm-comment__main">
                <p className="cm-meta">
                  <strong>{comment.author.displayName}</strong> · <time dateTime={comment.created}>{formatRelative(comment.created)}</time>
                  {comment.edited ? ' · edited' : ''}
                </p>
                {comment.deleted ? (
                  <p className="cm-comment__body cm-comment__body--deleted">Comment deleted</p>
                ) : editing === comment.commentId ? (
                  <CommentComposer
                    people={snapshot.people}
                    label="Edit your comment"
                    placeholder=""
                    submitLabel="Save"
                    initial={comment.body}
                    autoFocus
                    onSubmit={async (body, mentions) => {
                      const ok = await controller.edit(comment.commentId, body, mentions);
                      if (ok) setEditing(null);
                      return ok;
                    }}
                    onCancel={() => setEditing(null)}
                  />
                ) : (
                  <p className="cm-comment__body">{comment.body}</p>
                )}
                {!comment.deleted && editing !== comment.commentId && (mine || snapshot.canManage) ? (
                  <div className="cm-row cm-row--quiet">
                    {mine ? (
                      <button type="button" className="cm-link" onClick={() => setEditing(comment.commentId)}>
                        Edit
                      </button>
                    ) : null}
                    <button type="button" className="cm-link cm-link--danger" onClick={() => setDeleting(comment)}>
                      Delete
                    </button>
                  </div>
                ) : null}
              </div>
            </li>
          );
        })}
      </ol>
      <CommentComposer
        people={snapshot.people}
        label={`Reply in thread ${number}`}
        placeholder={thread.resolved ? 'Reply (opens the thread again)…' : 'Reply…'}
        submitLabel="Reply"
        onSubmit={(body, mentions) => controller.reply(thread.threadId, body, mentions)}
      />
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this comment?"
        confirmLabel="Delete"
        busy={busy}
        onCancel={() => setDeleting(null)}
        onConfirm={async () => {
          if (!deleting) return;
          setBusy(true);
          await controller.remove(deleting.commentId);
          setBusy(false);
          setDeleting(null);
        }}
      >
        <p className="cm-dialog-text">
          {deleting && deleting.author.uid !== controller.me ? `${deleting.author.displayName}’s comment` : 'Your comment'} will be removed for everyone. This cannot be undone.
        </p>
      </ConfirmDialog>
    </article>
  );
}
