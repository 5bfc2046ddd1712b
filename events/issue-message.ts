/**
 * A schema's refusal in the user's words: "Maximum zoom can be at most 64." where zod says
 * "Too big: expected number to be <=64". The server's error answers (server/errors.ts) and the
 * editor's panels read issues through this, so zod's own English, written for developers,
 * never reaches a person (issue 27). A message a schema words itself (a refinement, safe text)
 * is kept as written.
 *
 * Zod-free (the issue's shape is written out here), so the viewer's and editor's chunks do not
 * take zod with them for this.
 */

/** What this reads of a zod issue (zod 4's `$ZodIssue`, or fastify-type-provider-zod's copy of one). */
export interface IssueLike {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  origin?: string;
  maximum?: number | bigint;
  minimum?: number | bigint;
  inclusive?: boolean;
  expected?: string;
  values?: readonly unknown[];
  format?: string;
  keys?: readonly string[];
  divisor?: number | bigint;
}

/** Fields whose words are not their key's, by key (the last named key of the issue's path). */
const LABELS: Record<string, string> = {
  minZoom: 'Minimum zoom',
  maxZoom: 'Maximum zoom',
  initialView: 'Starting view',
  about: 'Short description',
  url: 'Address',
  href: 'Link',
  lat: 'Latitude',
  lng: 'Longitude',
  x: 'X',
  y: 'Y',
  displayName: 'Name',
  mapId: 'Map',
  uid: 'User',
};

/** zod's own English starts like this; a schema's own words do not. */
const ZOD_DEFAULT = /^(Too big|Too small|Invalid input|Invalid option|Invalid string|Invalid [a-z]+|Unrecognized keys?|Number must|String must|Array must|Expected )/;

/** The field an issue is about, as a person names it: `settings.maxZoom` is "Maximum zoom", `locations.3.phoneNumber` "Phone number". */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const key = [...path].reverse().find((segment): segment is string => typeof segment === 'string' && !/^\d+$/.test(segment));
  if (key === undefined) return 'This value';
  const known = LABELS[key];
  if (known) return known;
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words ? words[0]!.toUpperCase() + words.slice(1) : 'This value';
}

const bound = (value: number | bigint | undefined): string => (typeof value === 'bigint' ? value.toString() : typeof value === 'number' ? String(value) : '');
const items = (count: string, one: string, many: string) => `${count} ${count === '1' ? one : many}`;

/** Whether the schema worded this issue itself (a refinement's message), rather than zod. */
export function isOwnWords(issue: IssueLike): boolean {
  return !ZOD_DEFAULT.test(issue.message);
}

/**
 * A message naming the field for a reader with no other context (an error answer): zod's
 * defaults in words ("Maximum zoom can be at most 64."), a schema's own words after the field
 * they are about ("settings.minZoom: …", as before).
 */
export function issueText(issue: IssueLike): string {
  if (!isOwnWords(issue)) return issueMessage(issue);
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message;
}

/** What is wrong, said of the field: "Maximum zoom can be at most 64." (a schema's own words as written). */
export function issueMessage(issue: IssueLike): string {
  if (isOwnWords(issue)) return issue.message;
  const label = fieldLabel(issue.path);
  const sentence = (text: string) => `${label} ${text}.`;
  const origin = issue.origin;
  switch (issue.code) {
    case 'too_big': {
      const max = bound(issue.maximum);
      if (origin === 'string') return sentence(`can be at most ${items(max, 'character', 'characters')} long`);
      if (origin === 'array' || origin === 'set') return sentence(`can have at most ${items(max, 'item', 'items')}`);
      return sentence(issue.inclusive === false ? `must be less than ${max}` : `can be at most ${max}`);
    }
    case 'too_small': {
      const min = bound(issue.minimum);
      if (origin === 'string') return min === '1' ? sentence('is required') : sentence(`must be at least ${items(min, 'character', 'characters')} long`);
      if (origin === 'array' || origin === 'set') return sentence(`needs at least ${items(min, 'item', 'items')}`);
      if (issue.inclusive === false) return sentence(min === '0' ? 'must be more than 0' : `must be more than ${min}`);
      return sentence(`must be at least ${min}`);
    }
    case 'invalid_type':
      if (/received undefined$/.test(issue.message)) return sentence('is required');
      if (issue.expected === 'int') return sentence('must be a whole number');
      if (issue.expected === 'number') return sentence('must be a number');
      if (issue.expected === 'string') return sentence('must be text');
      if (issue.expected === 'boolean') return sentence('must be on or off');
      if (issue.expected === 'array') return sentence('must be a list');
      return sentence('is not valid');
    case 'invalid_value': {
      const values = issue.values ?? [];
      return values.length > 0 && values.length <= 6 && values.every((value) => typeof value === 'string' || typeof value === 'number')
        ? sentence(`must be one of: ${values.join(', ')}`)
        : sentence('is not one of the choices');
    }
    case 'invalid_format':
      if (issue.format === 'email') return sentence('must be an e-mail address');
      if (issue.format === 'url') return sentence('must be a web address');
      return sentence('is not in the expected format');
    case 'not_multiple_of':
      return sentence(`must be a multiple of ${bound(issue.divisor)}`);
    case 'unrecognized_keys':
      return `${(issue.keys ?? []).join(', ') || label}: unknown field.`;
    default:
      return sentence('is not valid');
  }
}
