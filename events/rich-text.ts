/**
 * Rich text (a location's `description`): which HTML is kept, one configuration for the
 * server, which sanitises before anything is recorded (server/content/rich-text-sanitizer.ts),
 * and the viewer, which sanitises again before it shows it (two locks on one door). Pure data
 * for DOMPurify; each side brings its own DOMPurify and window.
 *
 * Allowed: paragraphs and line breaks (`p`, `br`); bold, italic, underline and strike
 * (`strong`/`b`, `em`/`i`, `u`, `s`/`strike`/`del`); headings `h3` and `h4`; lists (`ul`,
 * `ol`, `li`); `blockquote`; links (`a href`) to `http:`, `https:`, `mailto:` and `tel:` only,
 * which open in a new tab without access to the page (`target="_blank"`,
 * `rel="noopener noreferrer"`, set by {@link openRichTextLink}). No other attribute survives
 * (no `style`, no `on*`, no `class`, no `data-*`/`aria-*`). Any other element is unwrapped (its
 * text kept), except those whose content is never text (`script`, `style`, `template`, `svg`,
 * `math`, `iframe`, ...), which go with everything inside them.
 */

/** DOMPurify's configuration for rich text (pass it to `sanitize`). */
export const RICH_TEXT_CONFIG = {
  ALLOWED_TAGS: ['p', 'br', 'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'del', 'h3', 'h4', 'ul', 'ol', 'li', 'a', 'blockquote'],
  // `target` and `rel` are not accepted from the input: openRichTextLink sets them.
  ALLOWED_ATTR: ['href'],
  // DOMPurify removes whitespace and control characters before testing, and the parser has
  // already decoded entities: `jav&#x09;ascript:` is tested as `javascript:`.
  ALLOWED_URI_REGEXP: /^(?:https?|mailto|tel):/i,
  ALLOW_DATA_ATTR: false,
  ALLOW_ARIA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  KEEP_CONTENT: true,
};

/** What every kept link gets: a new tab that cannot reach back into the page. */
export const RICH_TEXT_LINK_ATTRIBUTES = { target: '_blank', rel: 'noopener noreferrer' } as const;

/** The part of a DOM element {@link openRichTextLink} uses. */
export interface LinkCandidate {
  readonly nodeName: string;
  hasAttribute(name: string): boolean;
  setAttribute(name: string, value: string): void;
}

/**
 * DOMPurify's `afterSanitizeAttributes` hook for rich text: a link that kept its address opens
 * in a new tab without access to this page. (A link whose address was refused keeps no
 * `href`, and stays plain text.)
 */
export function openRichTextLink(node: LinkCandidate): void {
  // HTML elements only (an HTML document names them in capitals), not an SVG's <a>.
  if (node.nodeName !== 'A' || !node.hasAttribute('href')) return;
  node.setAttribute('target', RICH_TEXT_LINK_ATTRIBUTES.target);
  node.setAttribute('rel', RICH_TEXT_LINK_ATTRIBUTES.rel);
}
