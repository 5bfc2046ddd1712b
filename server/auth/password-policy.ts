/**
 * Password rules as users expect them today (NIST SP 800-63B): at least 8 characters, no
 * composition rules, and not one of the passwords attackers try first. The list is the
 * ~49,000 common passwords that zxcvbn-ts ships (@zxcvbn-ts/language-common).
 */
import { dictionary } from '@zxcvbn-ts/language-common';
import { z } from 'zod';

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

const common = new Set((dictionary['passwords-common'] as string[]).map((word) => word.toLowerCase()));

export function isCommonPassword(password: string): boolean {
  return common.has(password.toLowerCase());
}

export const NewPassword = z
  .string({ error: 'Password must be text.' })
  .min(PASSWORD_MIN, `Password must be at least ${PASSWORD_MIN} characters.`)
  .max(PASSWORD_MAX, `Password must be at most ${PASSWORD_MAX} characters.`)
  .refine((password) => !isCommonPassword(password), 'This password is too common. Choose one that is harder to guess.');
