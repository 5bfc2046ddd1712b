import { initialsOf } from '../../../utils/initials';
import './person-avatar.css';

/** Soft backgrounds with text dark enough on them (WCAG AA), one per person by their id. */
const PALETTE = [
  ['#e0e7ff', '#3730a3'],
  ['#dcfce7', '#166534'],
  ['#fef3c7', '#92400e'],
  ['#fce7f3', '#9d174d'],
  ['#e0f2fe', '#075985'],
  ['#ede9fe', '#5b21b6'],
  ['#ffedd5', '#9a3412'],
  ['#ccfbf1', '#115e59'],
] as const;

function paletteIndex(key: string): number {
  let hash = 0;
  for (const char of key) hash = (hash * 31 + char.codePointAt(0)!) | 0;
  return Math.abs(hash) % PALETTE.length;
}

/**
 * A person's round initials, decorative (their name is next to it). `pending` draws an
 * invitation not yet accepted: an envelope on a dashed ring instead of initials.
 */
export function PersonAvatar({ name, colorKey, pending = false }: { name: string; colorKey: string; pending?: boolean }) {
  if (pending) {
    return (
      <span className="share-avatar share-avatar--pending" aria-hidden="true">
        <svg viewBox="0 0 20 20" width="16" height="16" focusable="false">
          <path d="M3.5 5.5h13v9h-13z M3.5 6l6.5 5 6.5-5" fill="none" stroke="currentColor" strokeWidth="1.5" strokeLinejoin="round" />
        </svg>
      </span>
    );
  }
  const [background, color] = PALETTE[paletteIndex(colorKey)]!;
  return (
    <span className="share-avatar" style={{ background, color }} aria-hidden="true">
      {initialsOf(name)}
    </span>
  );
}
