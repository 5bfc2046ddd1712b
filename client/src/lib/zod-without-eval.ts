/**
 * Zod without `eval`: zod 4 compiles its object parsers with `new Function` where it may, and
 * finds out by trying once. The app's Content-Security-Policy allows no eval, so that try is
 * refused and reported as a violation; in jitless mode zod never tries (and parses the same).
 * The app's entry imports this module first, before any schema runs.
 */
import { z } from 'zod';

z.config({ jitless: true });
