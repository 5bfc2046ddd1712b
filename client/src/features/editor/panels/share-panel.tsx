/**
 * Share and embed: the published map's page, its link, and the snippet to paste into any
 * website (a responsive iframe of the chosen proportions), each with a Copy button. A test map
 * says who can see it until it is published on a plan.
 */
import { useEffect, useId, useState } from 'react';
import { MapState } from '../../../../../events/map-states';
import { copyText } from '../../../lib/clipboard';
import { embedSnippet, viewerUrl } from '../../../utils/embed';
import './panels.css';
import './share.css';

export interface SharePanelProps {
  mapId: string;
  title: string;
  /** The map's state number (events/map-states.ts). */
  state: number;
  /** The map uses a free test slot: only its owner sees the published page. */
  isTest: boolean;
  /** The site's public address, e.g. `https://maps.example.com`. */
  publicUrl: string;
}

const RATIOS = [
  { label: '16:10', value: 16 / 10 },
  { label: '4:3', value: 4 / 3 },
  { label: '1:1', value: 1 },
  { label: '21:9', value: 21 / 9 },
] as const;

export function SharePanel({ mapId, title, state, isTest, publicUrl }: SharePanelProps) {
  const [ratio, setRatio] = useState<number>(RATIOS[0].value);
  const [copied, setCopied] = useState<{ text: string; ok: boolean } | null>(null);
  const testMap = isTest || state === MapState.test;
  const ids = useId();
  const link = viewerUrl(publicUrl, mapId);
  const snippet = embedSnippet({ mapId, publicUrl, title, aspectRatio: ratio });

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2_500);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async (text: string, what: string) => {
    const ok = await copyText(text);
    setCopied({ ok, text: ok ? `${what} copied.` : `Could not copy: select the ${what.toLowerCase()} and copy it.` });
  };

  return (
    <div className="ep-panel ep-share">
      {testMap ? (
        <p className="ep-note ep-share-notice" role="note">
          This is a test map: only you can see it. Publishing on a Basic or Professional plan makes it public.{' '}
          <a href="/maps#subscribe">See the plans</a>
        </p>
      ) : null}
      <section className="ep-section" aria-labelledby={`${ids}-page`}>
        <h3 id={`${ids}-page`} className="ep-section__title">
          The published map
        </h3>
        <a className="ep-open ep-share-open" href={link} target="_blank" rel="noopener noreferrer">
          Open the published map
          <svg width="14" height="14" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
            <path d="M14 4h6v6M20 4l-9 9M18 14v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1V7a1 1 0 0 1 1-1h5" />
          </svg>
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
        <div className="ep-field">
          <label htmlFor={`${ids}-link`}>Link</label>
          <div className="ep-copy-row ep-share-copy-row">
            <input id={`${ids}-link`} className="ep-input" readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
            <button type="button" className="ep-button" onClick={() => void copy(link, 'Link')}>
              Copy
            </button>
          </div>
        </div>
      </section>
      <section className="ep-section" aria-labelledby={`${ids}-embed`}>
        <h3 id={`${ids}-embed`} className="ep-section__title">
          Embed on your website
        </h3>
        <div className="ep-field">
          <span className="ep-label" id={`${ids}-ratio`}>
            Proportions
          </span>
          <div className="ep-segmented ep-share-ratios" role="radiogroup" aria-labelledby={`${ids}-ratio`}>
            {RATIOS.map((option) => (
              <label key={option.label} className="ep-segmented__option">
                <input type="radio" name={`${ids}-ratio`} checked={ratio === option.value} onChange={() => setRatio(option.value)} />
                <span>{option.label}</span>
              </label>
            ))}
          </div>
        </div>
        <div className="ep-field">
          <label htmlFor={`${ids}-code`}>Embed code</label>
          <textarea id={`${ids}-code`} className="ep-input ep-code ep-share-code" readOnly rows={6} value={snippet} onFocus={(event) => event.currentTarget.select()} />
          <p className="ep-hint">Paste it into your page&apos;s HTML. The map fills the width it is given and keeps these proportions; the page keeps its scrolling.</p>
        </div>
        <button type="button" className="ep-button ep-button--primary" onClick={() => void copy(snippet, 'Embed code')}>
          Copy embed code
        </button>
      </section>
      <p className="ep-share-toast" role="status" aria-live="polite" data-ok={copied ? String(copied.ok) : undefined}>
        {copied?.text}
      </p>
    </div>
  );
}
