import { z } from 'zod';
import { DomainError } from './errors.js';
import { truncateText } from './safe-text.js';

/** Longest map title we accept; long enough for any real name, short enough for a card. */
export const MAP_TITLE_MAX = 120;

/** A map title: trimmed, not empty, at most {@link MAP_TITLE_MAX} characters. */
export const MapTitle = z
  .string({ error: 'Title must be text.' })
  .trim()
  .min(1, 'Title is required.')
  .max(MAP_TITLE_MAX, `Title must be at most ${MAP_TITLE_MAX} characters.`);

/** Prefix of a copied map's title (spec §9). */
export const COPY_TITLE_PREFIX = '[D] ';

/**
 * A copy's title: the original's prefixed '[D] ' (spec §9), cut to {@link MAP_TITLE_MAX} at a
 * character's boundary (a cut inside an emoji would leave half of it, text no boundary takes).
 */
export function copyTitleOf(title: string): string {
  return truncateText(`${COPY_TITLE_PREFIX}${title.trim()}`, MAP_TITLE_MAX).trimEnd();
}

/** Parses a title as a decider does: a bad one is an `invalid-argument` domain error. */
export function parseMapTitle(title: string): string {
  const parsed = MapTitle.safeParse(title);
  if (!parsed.success) throw new DomainError('invalid-argument', parsed.error.issues[0]?.message ?? 'Title is not valid.');
  return parsed.data;
}
