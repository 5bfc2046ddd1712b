/**
 * Zod without `eval`: zod 4 compiles its object parsers with `new Function` where it may, and
 * finds out by trying once. The app's Content-Security-Policy allows no eval, so that try is
 * refused and reported as a violation; in jitless mode zod never tries (and parses the same).
 * zod is not in the app's first chunk (the landing page does without it): the modules that
 * parse answers (api.ts, live-client.ts) import this one first, so it runs before any schema.
 */
import { z } from 'zod';

z.config({ jitless: true });
