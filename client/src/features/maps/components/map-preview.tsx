/** A decorative stand-in for a map's thumbnail, varied by the map's id. */
const PALETTES = [
  ['#e0e7ff', '#c7d2fe', '#6366f1'],
  ['#dcfce7', '#bbf7d0', '#16a34a'],
  ['#fef3c7', '#fde68a', '#d97706'],
  ['#e0f2fe', '#bae6fd', '#0284c7'],
  ['#fce7f3', '#fbcfe8', '#db2777'],
  ['#ede9fe', '#ddd6fe', '#7c3aed'],
] as const;

function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function MapPreview({ seed }: { seed: string }) {
  const h = hash(seed);
  const [bg, block, pin] = PALETTES[h % PALETTES.length]!;
  const x = 60 + (h % 160);
  const y = 30 + ((h >>> 8) % 50);
  return (
    <svg viewBox="0 0 320 120" preserveAspectRatio="xMidYMid slice" aria-hidden="true" focusable="false">
      <rect width="320" height="120" fill={bg} />
      <g fill={block} opacity="0.9">
        <rect x="14" y="14" width="70" height="40" rx="6" />
        <rect x="14" y="64" width="70" height="42" rx="6" />
        <rect x="96" y="14" width="110" height="92" rx="6" />
        <rect x="218" y="14" width="88" height="56" rx="6" />
        <rect x="218" y="80" width="88" height="26" rx="6" />
      </g>
      <path d={`M20 60 H90 V110 M90 60 H212 V75 H312`} stroke="#fff" strokeWidth="4" fill="none" strokeLinecap="round" opacity="0.8" />
      <g transform={`translate(${x} ${y})`}>
        <path d="M0 -14c-6 0-10.5 4.4-10.5 10.2C-10.5 3.6 0 14 0 14S10.5 3.6 10.5-3.8C10.5-9.6 6-14 0-14z" fill={pin} />
        <circle cx="0" cy="-4" r="3.6" fill="#fff" />
      </g>
    </svg>
  );
}
