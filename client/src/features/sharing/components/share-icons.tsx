/** The share dialog's small line icons (decorative: each sits beside words that say the same). */
const stroke = { fill: 'none', stroke: 'currentColor', strokeWidth: 1.6, strokeLinecap: 'round', strokeLinejoin: 'round' } as const;

export function RemoveIcon() {
  return (
    <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true" focusable="false">
      <path d="m6 6 8 8M14 6l-8 8" {...stroke} />
    </svg>
  );
}

export function LinkIcon() {
  return (
    <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" focusable="false">
      <path d="M8.5 11.5a3 3 0 0 0 4.24 0l2.5-2.5a3 3 0 0 0-4.24-4.24l-.75.75M11.5 8.5a3 3 0 0 0-4.24 0l-2.5 2.5a3 3 0 0 0 4.24 4.24l.75-.75" {...stroke} />
    </svg>
  );
}

export function CopyIcon() {
  return (
    <svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true" focusable="false">
      <rect x="7" y="7" width="9" height="9" rx="2" {...stroke} />
      <path d="M13 4.5H6A1.5 1.5 0 0 0 4.5 6v7" {...stroke} />
    </svg>
  );
}

export function LockIcon() {
  return (
    <svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true" focusable="false">
      <rect x="4.5" y="9" width="11" height="7.5" rx="1.5" {...stroke} />
      <path d="M7 9V6.5a3 3 0 0 1 6 0V9" {...stroke} />
    </svg>
  );
}

export function CheckIcon() {
  return (
    <svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true" focusable="false">
      <path d="m4.5 10.5 3.5 3.5 7.5-8" {...stroke} strokeWidth={2} />
    </svg>
  );
}
