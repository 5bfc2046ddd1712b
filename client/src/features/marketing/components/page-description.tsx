import { useEffect } from 'react';

/**
 * Sets the page's meta description while the page is shown, and puts the previous one back
 * after. index.html already carries a site-wide `<meta name="description">` (for crawlers that
 * run no script); React's own `<meta>` would add a second tag beside it, so this one rewrites
 * that tag instead, and a page never has two descriptions.
 */
export function PageDescription({ content }: { content: string }) {
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
