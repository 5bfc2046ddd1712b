/** truncateText cuts at a character's boundary (issue 26: a title cut inside an emoji was a 500). */
import { describe, expect, it } from 'vitest';
import { copyTitleOf, MAP_TITLE_MAX } from '../../events/map-title.js';
import { isSafeText, truncateText } from '../../events/safe-text.js';

describe('truncateText', () => {
  it('keeps text within the limit as it is', () => {
    expect(truncateText('Café', 4)).toBe('Café');
  });

  it('never leaves half of a surrogate pair', () => {
    const cut = truncateText(`${'a'.repeat(9)}😀`, 10);
    expect(cut).toBe('a'.repeat(9));
    expect(isSafeText(cut)).toBe(true);
  });

  it('keeps an emoji with its modifiers, or leaves it out whole', () => {
    const family = '👩‍👩‍👧';
    expect(truncateText(`ab${family}`, 5)).toBe('ab');
    expect(truncateText(`ab${family}c`, 2 + family.length)).toBe(`ab${family}`);
  });

  it('cuts a copy title to the limit without splitting an emoji', () => {
    const title = `${'x'.repeat(MAP_TITLE_MAX - 5)}😀😀`;
    const copy = copyTitleOf(title);
    expect(copy.length).toBeLessThanOrEqual(MAP_TITLE_MAX);
    expect(isSafeText(copy)).toBe(true);
    expect(copy.startsWith('[D] ')).toBe(true);
  });
});
