/** The share dialog's "Anyone with the link can view" switch, and the link to copy while it is on. */
import { useEffect, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { copyText } from '../../../lib/clipboard';
import { CopyIcon, LinkIcon } from './share-icons';

export function ViewLink({ url, busy, error, onChange }: { url: string | null; busy: boolean; error: string | null; onChange(enabled: boolean): void }) {
  const ids = useId();
  const [copied, setCopied] = useState<string | null>(null);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(null), 2_500);
    return () => clearTimeout(timer);
  }, [copied]);
  const on = url !== null;
  return (
    <section className="share-section share-viewlink" aria-labelledby={`${ids}-title`}>
      <h3 id={`${ids}-title`} className="share-section__title">
        Link sharing
      </h3>
      <div className="share-viewlink__row">
        <span className="share-viewlink__icon" aria-hidden="true">
          <LinkIcon />
        </span>
        <span className="share-viewlink__text">
          <span id={`${ids}-label`} className="share-person__primary">
            Anyone with the link can view
          </span>
          <span id={`${ids}-hint`} className="share-person__secondary">
            {on ? 'No account needed. Turning it off stops the link at once.' : 'Off: only the people above can open this map.'}
          </span>
        </span>
        <button
          type="button"
          role="switch"
          className="share-switch"
          aria-checked={on}
          aria-labelledby={`${ids}-label`}
          aria-describedby={`${ids}-hint`}
          disabled={busy}
          aria-busy={busy || undefined}
          onClick={() => onChange(!on)}
        >
          <span className="share-switch__thumb" />
        </button>
      </div>
      {url ? (
        <div className="share-viewlink__copy">
          <input className="share-viewlink__url" readOnly value={url} aria-label="View link" onFocus={(event) => event.currentTarget.select()} />
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void copyText(url).then((ok) => setCopied(ok ? 'Link copied.' : 'Could not copy: select the link and copy it.'))}
          >
            <CopyIcon /> Copy link
          </Button>
        </div>
      ) : null}
      <p className="share-viewlink__status" role="status">
        {copied}
      </p>
      {error ? (
        <p className="share-person__error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}
