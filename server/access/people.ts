/**
 * Names and addresses of people, for the members list: from the local accounts (current, as
 * each person set them) when this installation has them. With Clerk there is no account
 * table: the list then shows what the events recorded (a member's name and address when they
 * accepted, the owner's name when they created the map).
 */
import type { Queryable } from '../../ports/database.js';

export interface Person {
  displayName: string;
  email: string;
}

export type PeopleDirectory = (uids: readonly string[]) => Promise<Map<string, Person>>;

export function peopleDirectory(db: Queryable, localAccounts: boolean): PeopleDirectory {
  return async (uids) => {
    if (!localAccounts || uids.length === 0) return new Map();
    const { rows } = await db.query<{ uid: string; email: string; display_name: string }>(
      'SELECT uid, email, display_name FROM auth_accounts WHERE uid = ANY($1::text[])',
      [[...uids]],
    );
    return new Map(rows.map((row) => [row.uid, { displayName: row.display_name, email: row.email }]));
  };
}
