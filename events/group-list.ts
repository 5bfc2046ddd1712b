/**
 * A list of group names in one table cell, both ways: "Food; Drinks" for plain names, and a
 * name holding a `;` or `,` (or a quote, or spaces at its ends) in double quotes, its quotes
 * doubled ("Shoes, bags"; Toys). Export writes it, every CSV import reads it, so group names
 * come back as they went out. A cell split on commas when it has no `;` at all, the way other
 * tools write lists ("Food, Drinks").
 */
const NEEDS_QUOTES = /[;,"]|^\s|\s$/;

export function joinGroupNames(names: readonly string[]): string {
  return names.map((name) => (NEEDS_QUOTES.test(name) ? `"${name.replace(/"/g, '""')}"` : name)).join('; ');
}

export function splitGroupNames(cell: string): string[] {
  const text = cell.trim();
  if (text === '') return [];
  const separator = /[;"]/.test(text) ? ';' : ',';
  const names: string[] = [];
  let current = '';
  let quoted = false;
  let wasQuoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        current += '"';
        i++;
      } else if (char === '"') quoted = false;
      else current += char;
    } else if (char === '"' && current.trim() === '') {
      quoted = true;
      wasQuoted = true;
      current = '';
    } else if (char === separator) {
      names.push(wasQuoted ? current : current.trim());
      current = '';
      wasQuoted = false;
    } else if (!(wasQuoted && /\s/.test(char))) current += char;
  }
  names.push(wasQuoted ? current : current.trim());
  return names.filter((name) => name.trim() !== '');
}
