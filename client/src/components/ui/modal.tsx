/**
 * A modal dialog with a title bar and a close button: focus moves inside when it opens (to
 * `initialFocus`, else the first field or button), Tab and Shift+Tab stay inside, Escape and
 * the close button close it, and focus returns to what had it before. The page behind does not
 * scroll. On a phone it fills the width and grows to the screen's height, scrolling inside.
 *
 * ConfirmDialog is the small yes/no case; this is for dialogs that hold a whole task.
 */
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import './modal.css';

export interface ModalProps {
  open: boolean;
  title: ReactNode;
  /** A line under the title saying what the dialog is for. */
  description?: ReactNode;
  onClose(): void;
  children: ReactNode;
  /** What gets focus when the dialog opens. */
  initialFocus?: RefObject<HTMLElement | null>;
  /** Pinned under the scrolling body (actions, a status line). */
  footer?: ReactNode;
  /** Holds Escape and the close button while something must finish. */
  busy?: boolean;
  className?: string;
}

const FOCUSABLE = 'button:not([disabled]), [href], input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

export function Modal({ open, title, description, onClose, children, initialFocus, footer, busy = false, className }: ModalProps) {
  const titleId = useId();
  const descriptionId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const target = initialFocus?.current ?? dialogRef.current?.querySelector('.modal__body')?.querySelector<HTMLElement>(FOCUSABLE) ?? dialogRef.current;
    target?.focus();
    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      if (previous?.isConnected) previous.focus();
    };
    // Only on opening: later renders must not pull focus back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  // Escape closes it wherever focus is (a control that was disabled while it worked leaves focus
  // on the page's body), unless it was meant for another dialog opened over this one.
  const latest = useRef({ busy, onClose });
  latest.current = { busy, onClose };
  useEffect(() => {
    if (!open) return;
    const onEscape = (event: globalThis.KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return;
      const inDialog = event.target instanceof Element ? event.target.closest('[role="dialog"]') : null;
      if (inDialog && inDialog !== dialogRef.current) return;
      event.preventDefault();
      if (!latest.current.busy) latest.current.onClose();
    };
    document.addEventListener('keydown', onEscape);
    return () => document.removeEventListener('keydown', onEscape);
  }, [open]);

  if (!open) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Tab' || !dialogRef.current) return;
    const focusable = [...dialogRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((element) => element.getClientRects().length > 0 || !element.closest('[hidden]'));
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (!first || !last) {
      event.preventDefault();
      return;
    }
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === dialogRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div className="modal-backdrop" onMouseDown={(event) => event.target === event.currentTarget && !busy && onClose()}>
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={['modal', className].filter(Boolean).join(' ')}
        onKeyDown={onKeyDown}
      >
        <header className="modal__head">
          <div className="modal__heading">
            <h2 id={titleId} className="modal__title">
              {title}
            </h2>
            {description ? (
              <p id={descriptionId} className="modal__description">
                {description}
              </p>
            ) : null}
          </div>
          <button type="button" className="modal__close" aria-label="Close" onClick={onClose} disabled={busy}>
            <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
              <path d="m5 5 10 10M15 5 5 15" fill="none" stroke="currentColor" strokeWidth="1.75" strokeLinecap="round" />
            </svg>
          </button>
        </header>
        <div className="modal__body">{children}</div>
        {footer ? <footer className="modal__foot">{footer}</footer> : null}
      </div>
    </div>,
    document.body,
  );
}
