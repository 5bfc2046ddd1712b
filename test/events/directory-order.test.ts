/**
 * The directory's order (events/directory-order.ts): titles as the page's language sorts them,
 * hidden locations left out; the server's hint gives the same list, and a wrong hint (stale,
 * repeated, out of range, naming a hidden location) still gives the right one.
 */
import { describe, expect, it } from 'vitest';
import { directoryOrder, inDirectoryOrder } from '../../events/directory-order';

const locations = [
  { title: 'Unit 10' },
  { title: 'unit 2' },
  { title: 'Ñandú Café' },
  { title: 'Nube' },
  { title: 'Hidden', hidden: true },
  { title: 'Ostra' },
  { title: 'Äpfel' },
  { title: 'Unit 2' },
];
const titles = (list: ReadonlyArray<{ title: string }>) => list.map((location) => location.title);

describe('directory order', () => {
  it('sorts numbers by value, ignores case and accents, and leaves out hidden locations', () => {
    expect(titles(inDirectoryOrder(locations, 'en'))).toEqual(['Äpfel', 'Ñandú Café', 'Nube', 'Ostra', 'unit 2', 'Unit 2', 'Unit 10']);
  });

  it('sorts as the page’s language does: Spanish puts ñ after n', () => {
    expect(titles(inDirectoryOrder(locations, 'es'))).toEqual(['Äpfel', 'Nube', 'Ñandú Café', 'Ostra', 'unit 2', 'Unit 2', 'Unit 10']);
  });

  it('gives the same list from the server’s hint, equal titles in the document’s order', () => {
    for (const locale of ['en', 'es', 'ja']) {
      const hint = directoryOrder(locations, locale);
      expect(hint).not.toContain(4);
      expect(inDirectoryOrder(locations, locale, hint)).toEqual(inDirectoryOrder(locations, locale));
    }
  });

  it('gives the right list whatever a wrong hint says', () => {
    const right = titles(inDirectoryOrder(locations, 'en'));
    for (const hint of [[0, 1, 2, 3, 5, 6, 7], [7, 6, 5, 3, 2, 1, 0], [0, 0, 1, 2, 3, 5, 6], [0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 5, 6, 99], [0.5, 1, 2, 3, 5, 6, 7], [1, 2], []]) {
      expect(titles(inDirectoryOrder(locations, 'en', hint)), JSON.stringify(hint)).toEqual(right);
    }
  });
});
