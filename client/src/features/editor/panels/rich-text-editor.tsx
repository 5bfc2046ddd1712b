/**
 * A small WYSIWYG editor for rich text (a location's description): an editable region with a
 * toolbar (bold, italic, bulleted and numbered lists, link, remove formatting), Ctrl/⌘+B, I
 * and K. What it gives to `onChange` has been through DOMPurify with the product's rich-text
 * configuration; pasted or dropped markup is sanitised before it enters the page, and so is the
 * value it is given. Commands go through `document.execCommand` (rich-text-dom.ts says why).
 *
 * The region keeps the user's text as typed (the draft): the value given from outside (a
 * collaborator's edit) replaces it only while the region does not have the focus. Text that
 * `validate` refuses (too long) stays in the region with the message under it, and nothing is
 * given to `onChange`.
 */
import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent, type ReactNode } from 'react';
import {
  activeFormats,
  applyLink,
  checkLinkAddress,
  configureEditing,
  insertHtml,
  linkAt,
  NO_FORMATS,
  rangeIn,
  removeLink,
  runCommand,
  sameFormats,
  selectEnd,
  selectRange,
  textToHtml,
  type ActiveFormats,
} from './rich-text-dom';
import { useRichTextCleaner } from './use-rich-text-cleaner';
import { RichTextLinkPrompt, RichTextToolbar, type LinkPrompt, type ToolId } from './rich-text-toolbar';

export interface RichTextEditorProps {
  label: string;
  /** The rich text (HTML) as stored; sanitised again before it is shown. */
  value: string;
  /** Sanitised rich text, when the user changed it and `validate` accepts it. */
  onChange(html: string): void;
  /** A message about the sanitised text (e.g. too long), or null when it can be kept. */
  validate?(html: string): string | null;
  hint?: ReactNode;
  placeholder?: string;
}

export function RichTextEditor({ label, value, onChange, validate, hint, placeholder }: RichTextEditorProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const rootRef = useRef<HTMLDivElement>(null);
  const areaRef = useRef<HTMLDivElement>(null);
  const toolbarRef = useRef<HTMLDivElement>(null);
  const { cleaner, loadError } = useRichTextCleaner();
  const [error, setError] = useState<string | null>(null);
  const [formats, setFormats] = useState<ActiveFormats>(NO_FORMATS);
  const [link, setLink] = useState<LinkPrompt | null>(null);
  const [activeTool, setActiveTool] = useState(0);
  /** The focus is in the editor: its region, toolbar or link prompt. */
  const focused = useRef(false);
  /** The value the region shows or last gave to onChange. */
  const shown = useRef<string | null>(null);
  /** Where the selection was when the region lost the focus (to the toolbar). */
  const savedRange = useRef<Range | null>(null);
  const latest = useRef({ value, onChange, validate });
  latest.current = { value, onChange, validate };

  /** Shows the value from outside (sanitised) in place of the draft. */
  const showValue = useCallback(() => {
    const area = areaRef.current;
    if (!area || !cleaner || latest.current.value === shown.current) return;
    area.innerHTML = cleaner.clean(latest.current.value);
    shown.current = latest.current.value;
    setError(null);
  }, [cleaner]);

  // A change from outside (a collaborator) replaces the draft unless the user is in the editor
  // (its region, toolbar or link prompt); it is shown when they leave it.
  useLayoutEffect(() => {
    if (!focused.current || shown.current === null) showValue();
  }, [value, showValue]);

  const refreshFormats = useCallback(() => {
    const area = areaRef.current;
    if (!area) return;
    const next = activeFormats(area);
    setFormats((current) => (sameFormats(current, next) ? current : next));
  }, []);

  useEffect(() => {
    const onSelectionChange = () => {
      if (focused.current) refreshFormats();
    };
    document.addEventListener('selectionchange', onSelectionChange);
    return () => document.removeEventListener('selectionchange', onSelectionChange);
  }, [refreshFormats]);

  /** Reads the region, sanitises it and gives it on when it changed and is acceptable. */
  const commit = useCallback(() => {
    const area = areaRef.current;
    if (!area || !cleaner) return;
    const html = cleaner.clean(area.innerHTML);
    const problem = latest.current.validate?.(html) ?? null;
    setError(problem);
    refreshFormats();
    if (problem || html === latest.current.value) return;
    shown.current = html;
    latest.current.onChange(html);
  }, [cleaner, refreshFormats]);

  /** Puts the focus and the selection back in the region (after a toolbar button had them). */
  const restoreSelection = (): HTMLElement | null => {
    const area = areaRef.current;
    if (!area) return null;
    const saved = savedRange.current && area.contains(savedRange.current.commonAncestorContainer) ? savedRange.current : null;
    const range = rangeIn(area)?.cloneRange() ?? saved;
    if (document.activeElement !== area) area.focus();
    if (range) selectRange(range);
    else selectEnd(area);
    return area;
  };

  const openLink = () => {
    const area = restoreSelection();
    const range = area ? rangeIn(area) : null;
    if (!area || !range) return;
    const existing = linkAt(area);
    setLink({ range: range.cloneRange(), draft: existing?.getAttribute('href') ?? 'https://', error: null, existing: existing !== null });
  };

  const run = (tool: ToolId) => {
    if (tool === 'link') {
      openLink();
      return;
    }
    const area = restoreSelection();
    if (!area) return;
    configureEditing();
    runCommand(area, tool);
    commit();
  };

  const closeLink = (focusArea: boolean) => {
    const range = link?.range;
    setLink(null);
    if (focusArea && range) {
      areaRef.current?.focus();
      selectRange(range);
    }
  };

  const submitLink = () => {
    const area = areaRef.current;
    if (!link || !area) return;
    const checked = checkLinkAddress(link.draft);
    if ('error' in checked) {
      setLink({ ...link, error: checked.error });
      return;
    }
    area.focus();
    configureEditing();
    applyLink(area, link.range, checked.url);
    setLink(null);
    commit();
  };

  const unlink = () => {
    const area = areaRef.current;
    if (!link || !area) return;
    area.focus();
    removeLink(area, link.range);
    setLink(null);
    commit();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
    const key = event.key.toLowerCase();
    const tool: ToolId | null = key === 'b' ? 'bold' : key === 'i' ? 'italic' : key === 'k' ? 'link' : null;
    if (!tool) return;
    event.preventDefault();
    run(tool);
  };

  /** Pasted or dropped content: its markup sanitised, or its text. */
  const insertTransfer = (data: DataTransfer | null) => {
    const area = areaRef.current;
    if (!area || !cleaner || !data) return;
    const html = data.getData('text/html');
    const markup = html ? cleaner.clean(html) : textToHtml(data.getData('text/plain'));
    if (markup) insertHtml(area, markup);
    commit();
  };

  const onPaste = (event: ClipboardEvent<HTMLDivElement>) => {
    event.preventDefault();
    insertTransfer(event.clipboardData);
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    const area = areaRef.current;
    if (!area) return;
    // Where it was dropped (Chromium and WebKit say; elsewhere: the end of the text).
    const at = typeof document.caretRangeFromPoint === 'function' ? document.caretRangeFromPoint(event.clientX, event.clientY) : null;
    area.focus();
    if (at && area.contains(at.startContainer)) selectRange(at);
    else if (!rangeIn(area)) selectEnd(area);
    insertTransfer(event.dataTransfer);
  };

  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;

  return (
    <div
      ref={rootRef}
      className="ep-loc-rte"
      onFocus={() => {
        focused.current = true;
      }}
      onBlur={(event) => {
        if (event.relatedTarget instanceof Node && rootRef.current?.contains(event.relatedTarget)) return;
        focused.current = false;
        // A refused draft (too long) stays for the user to fix.
        if (!error) showValue();
      }}
    >
      <span className="ep-loc-label" id={labelId}>
        {label}
      </span>
      <div className="ep-loc-rte__box" data-invalid={error ? 'true' : undefined}>
        <RichTextToolbar
          toolbarRef={toolbarRef}
          label={label}
          areaId={`${id}-area`}
          formats={formats}
          activeTool={activeTool}
          setActiveTool={setActiveTool}
          disabled={!cleaner}
          onRun={run}
        />
        {link ? <RichTextLinkPrompt id={id} link={link} onLink={setLink} onSubmit={submitLink} onUnlink={unlink} onClose={() => closeLink(true)} /> : null}
        {cleaner ? (
          <div
            ref={areaRef}
            id={`${id}-area`}
            className="ep-loc-rte__area"
            role="textbox"
            aria-multiline="true"
            aria-labelledby={labelId}
            aria-describedby={describedBy}
            aria-invalid={error ? true : undefined}
            contentEditable
            suppressContentEditableWarning
            spellCheck
            data-placeholder={placeholder}
            aria-placeholder={placeholder}
            onFocus={() => {
              configureEditing();
              refreshFormats();
            }}
            onBlur={() => {
              const area = areaRef.current;
              const range = area ? rangeIn(area) : null;
              savedRange.current = range ? range.cloneRange() : savedRange.current;
            }}
            onInput={commit}
            onKeyDown={onKeyDown}
            onKeyUp={refreshFormats}
            onMouseUp={refreshFormats}
            onPaste={onPaste}
            onDrop={onDrop}
          />
        ) : (
          <div className="ep-loc-rte__area ep-loc-rte__area--loading" aria-busy="true" aria-labelledby={labelId}>
            {loadError ? 'The editor could not be loaded. Check the connection and reopen the location.' : 'Loading the editor…'}
          </div>
        )}
      </div>
      {hint ? (
        <p id={hintId} className="ep-loc-hint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="ep-loc-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
