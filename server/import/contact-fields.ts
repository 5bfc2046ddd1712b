/**
 * Where a row's postal address and email go, since a location has no fields of their own for
 * them: the address parts joined in the order they are written ("1 Main St, Suite 2,
 * Springfield, IL, 62701, US") become the short text the viewer shows under the name, or, when
 * the file has a short text of its own, a paragraph after the description; an email becomes a
 * mail link after the description. One rule for tables, store-locator lists and GeoJSON.
 */
import { ADDRESS_FIELDS, type ImportField, type PlannedFields } from '../../events/map-import.js';

const EMAIL = /^[^\s@<>"'&]+@[^\s@<>"'&]+\.[^\s@<>"'&]+$/;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The description with a paragraph added after it. */
function withParagraph(description: string | undefined, html: string): string {
  return description ? `${description}\n<p>${html}</p>` : `<p>${html}</p>`;
}

/** The address the parts make, in writing order, empty parts and repeats left out. */
export function composeAddress(value: (field: ImportField) => string): string {
  const parts: string[] = [];
  for (const field of ADDRESS_FIELDS) {
    const part = value(field).trim();
    // "Berlin, Berlin" (a city-state given as city and state) says it once.
    if (part && !parts.some((p) => p.toLowerCase() === part.toLowerCase())) parts.push(part);
  }
  return parts.join(', ');
}

/** `fields` with the row's address and email put where a location keeps them. */
export function addContactFields(fields: PlannedFields, value: (field: ImportField) => string): void {
  const address = composeAddress(value);
  if (address && fields.about === undefined) fields.about = address;
  else if (address) fields.description = withParagraph(fields.description, escapeHtml(address));
  const email = value('email').trim();
  if (email && EMAIL.test(email)) fields.description = withParagraph(fields.description, `<a href="mailto:${escapeHtml(email)}">${escapeHtml(email)}</a>`);
  else if (email) fields.description = withParagraph(fields.description, escapeHtml(email));
}
