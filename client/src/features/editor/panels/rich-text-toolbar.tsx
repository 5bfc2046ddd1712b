/**
 * The rich-text editor's toolbar (bold, italic, lists, link, remove formatting: one tab stop,
 * arrows move between the tools) and its link prompt (the address, add or update, remove, cancel).
 */
import type { KeyboardEvent, ReactNode, RefObject } from 'react';
import type { ActiveFormats, RichTextCommand } from './rich-text-dom';

export type ToolId = RichTextCommand | 'link';

const MAC = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);
const MOD = MAC ? '⌘' : 'Ctrl+';

export const TOOLS: ReadonlyArray<{ id: ToolId; label: string; shortcut?: string; keys?: string; icon: ReactNode; pressed?: keyof ActiveFormats }> = [
  { id: 'bold', label: 'Bold', shortcut: `${MOD}B`, keys: 'Control+B Meta+B', pressed: 'bold', icon: <path d="M7 5h6a3.5 3.5 0 0 1 0 7H7zM7 12h7a3.5 3.5 0 0 1 0 7H7z" /> },
  { id: 'italic', label: 'Italic', shortcut: `${MOD}I`, keys: 'Control+I Meta+I', pressed: 'italic', icon: <path d="M10 5h8M6 19h8M14 5l-4 14" /> },
  {
    id: 'insertUnorderedList',
    label: 'Bulleted list',
    pressed: 'insertUnorderedList',
    icon: <path d="M9 6h11M9 12h11M9 18h11M4.5 6h.01M4.5 12h.01M4.5 18h.01" />,
  },
  {
    id: 'insertOrderedList',
    label: 'Numbered list',
    pressed: 'insertOrderedList',
    icon: <path d="M10 6h10M10 12h10M10 18h10M4 5l1.5-1v5M3.5 14.5a1.5 1.5 0 1 1 2.4 1.2L3.5 19H6.5" />,
  },
  {
    id: 'link',
    label: 'Link',
    shortcut: `${MOD}K`,
    keys: 'Control+K Meta+K',
    pressed: 'link',
    icon: <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />,
  },
  { id: 'removeFormat', label: 'Remove formatting', icon: <path d="M6 5h12M12 5l-3 14M4 4l16 16" /> },
];

export interface LinkPrompt {
  /** Where the link goes: the selection when the prompt opened. */
  range: Range;
  draft: string;
  error: string | null;
  /** The selection is in a link already (its address is being changed). */
  existing: boolean;
}

export interface RichTextToolbarProps {
  toolbarRef: RefObject<HTMLDivElement | null>;
  label: string;
  /** The id of the editable region the tools act on. */
  areaId: string;
  formats: ActiveFormats;
  /** The tool that takes the toolbar's one tab stop. */
  activeTool: number;
  setActiveTool(index: number): void;
  disabled: boolean;
  onRun(tool: ToolId): void;
}

export function RichTextToolbar({ toolbarRef, label, areaId, formats, activeTool, setActiveTool, disabled, onRun }: RichTextToolbarProps) {
  // The toolbar is one tab stop; the arrow keys move between its buttons.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const last = TOOLS.length - 1;
    const next =
      event.key === 'ArrowRight' ? (activeTool === last ? 0 : activeTool + 1)
      : event.key === 'ArrowLeft' ? (activeTool === 0 ? last : activeTool - 1)
      : event.key === 'Home' ? 0
      : event.key === 'End' ? last
      : null;
    if (next === null) return;
    event.preventDefault();
    setActiveTool(next);
    toolbarRef.current?.querySelectorAll<HTMLButtonElement>('button')[next]?.focus();
  };

  return (
    <div
      ref={toolbarRef}
      className="ep-loc-rte__toolbar"
      role="toolbar"
      aria-label={`${label} formatting`}
      aria-controls={areaId}
      onKeyDown={onKeyDown}
    >
      {TOOLS.map((tool, index) => (
        <button
          key={tool.id}
          type="button"
          className="ep-loc-rte__tool"
          aria-label={tool.label}
          title={tool.shortcut ? `${tool.label} (${tool.shortcut})` : tool.label}
          aria-keyshortcuts={tool.keys}
          aria-pressed={tool.pressed ? formats[tool.pressed] : undefined}
          tabIndex={index === activeTool ? 0 : -1}
          disabled={disabled}
          // Keeps the selection in the region when clicked with a mouse.
          onMouseDown={(event) => event.preventDefault()}
          onFocus={() => setActiveTool(index)}
          onClick={() => onRun(tool.id)}
        >
          <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2} strokeLinecap="round" strokeLinejoin="round" aria-hidden="true" focusable="false">
            {tool.icon}
          </svg>
        </button>
      ))}
    </div>
  );
}

export interface RichTextLinkPromptProps {
  /** The editor's id, the prompt's field's id is made from. */
  id: string;
  link: LinkPrompt;
  onLink(link: LinkPrompt): void;
  onSubmit(): void;
  onUnlink(): void;
  /** Closes the prompt, the focus back in the region. */
  onClose(): void;
}

export function RichTextLinkPrompt({ id, link, onLink, onSubmit, onUnlink, onClose }: RichTextLinkPromptProps) {
  return (
    <div className="ep-loc-rte__link" role="group" aria-label="Link address">
      <label className="visually-hidden" htmlFor={`${id}-link`}>
        Link address
      </label>
      <input
        id={`${id}-link`}
        className="ep-loc-input"
        type="url"
        inputMode="url"
        autoFocus
        value={link.draft}
        aria-invalid={link.error ? true : undefined}
        aria-describedby={link.error ? `${id}-link-error` : undefined}
        onChange={(event) => onLink({ ...link, draft: event.target.value, error: null })}
        onKeyDown={(event) => {
          if (event.key === 'Enter') {
            event.preventDefault();
            onSubmit();
          } else if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            onClose();
          }
        }}
      />
      <div className="ep-loc-rte__link-actions">
        <button type="button" className="ep-loc-button ep-loc-button--primary" onClick={onSubmit}>
          {link.existing ? 'Update link' : 'Add link'}
        </button>
        {link.existing ? (
          <button type="button" className="ep-loc-button" onClick={onUnlink}>
            Remove link
          </button>
        ) : null}
        <button type="button" className="ep-loc-button ep-loc-button--quiet" onClick={() => onClose()}>
          Cancel
        </button>
      </div>
      {link.error ? (
        <p id={`${id}-link-error`} className="ep-loc-error" role="alert">
          {link.error}
        </p>
      ) : null}
    </div>
  );
}
