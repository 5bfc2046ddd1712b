import { useEffect, useState } from 'react';
import { loadRichTextCleaner, type RichTextCleaner } from './rich-text-dom';

/** The rich-text sanitiser for an editor, once loaded (DOMPurify is its own chunk), or that it could not be. */
export function useRichTextCleaner(): { cleaner: RichTextCleaner | null; loadError: boolean } {
  const [cleaner, setCleaner] = useState<RichTextCleaner | null>(null);
  const [loadError, setLoadError] = useState(false);
  useEffect(() => {
    let cancelled = false;
    loadRichTextCleaner().then(
      (loaded) => !cancelled && setCleaner(loaded),
      () => !cancelled && setLoadError(true),
    );
    return () => {
      cancelled = true;
    };
  }, []);
  return { cleaner, loadError };
}
