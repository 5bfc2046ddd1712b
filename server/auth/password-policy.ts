/**
 * Password rules as users expect them today (NIST SP 800-63B): at least 8 characters, no
 * composition rules, and not one of the passwords attackers try first. The list is the
 * ~49,000 common passwords that zxcvbn-ts ships (@zxcvbn-ts/language-common), loaded with the
 * first password to check: a server that nobody signs up to does not hold them (some 5 MB).
 */
import { createRequire } from 'node:module';
import { z } from 'zod';

const require = createRequire(import.meta.url);

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

let common: ReadonlySet<string> | null = null;

export function isCommonPassword(password: string): boolean {
  if (!common) {
    const { dictionary } = require('@zxcvbn-ts/language-common') as typeof import('@zxcvbn-ts/language-common');
    common = new Set((dictionary['passwords-common'] as string[]).map((word) => word.toLowerCase()));
  }
  return common.has(password.toLowerCase());
}

export const NewPassword = z
  .string({ error: 'Password must be text.' })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters.`)
  .refine((password) => !isCommonPassword(password), 'This password is too common. Choose one that is harder to guess.');
