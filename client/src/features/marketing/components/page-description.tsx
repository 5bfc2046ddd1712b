import { useEffect } from 'react';

/**
 * What the build's prerendering of a page collects for its `<head>` (client/src/pages-server.tsx,
 * one page at a time). Not a context: a provider above the app would make the prerendered tree
 * differ from the one the browser hydrates.
 */
export const prerenderedHead: { description: string | null } = { description: null };

/** Notes the page's description for the prerendered `<head>`; nothing in a browser. */
function recordForPrerender(description: string): void {
  if (typeof window === 'undefined') prerenderedHead.description = description;
}

/**
 * Sets the page's meta description while the page is shown, and puts the previous one back
 * after. index.html already carries a site-wide `<meta name="description">` (for crawlers that
 * run no script); React's own `<meta>` would add a second tag beside it, so this one rewrites
 * that tag instead, and a page never has two descriptions.
 */
export function PageDescription({ content }: { content: string }) {
  // Prerendering (no window, no effects): the page's HTML carries its own description.
  recordForPrerender(content);
  useEffect(() => {
    let tag = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
    const created = !tag;
    if (!tag) {
      tag = document.createElement('meta');
      tag.name = 'description';
      document.head.append(tag);
    }
    const previous = tag.content;
    tag.content = content;
    return () => {
      if (created) tag.remove();
      else tag.content = previous;
    };
  }, [content]);
  return null;
}
