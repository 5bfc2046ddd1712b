import type { MemberRole } from '../../../../../events/map-access';

/** A member's role as the interface names it. */
export const ROLE_LABELS: Record<MemberRole, string> = { editor: 'Editor', viewer: 'Viewer' };

/** What the role allows, in a few words (under the invite form). */
export const ROLE_HINTS: Record<MemberRole, string> = { editor: 'Can change the map', viewer: 'Can look, not change' };
