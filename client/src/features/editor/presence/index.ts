/** Presence in the editor (issue 16): who is in the map, their pointers, selections and forms. */
export { EditingNotice } from './editing-notice';
export { PresenceAvatars } from './presence-avatars';
export { PresenceProvider, usePresencePeers, usePresenceReport, usePresenceRoster, usePresenceSession } from './presence-context';
export { PresenceOverlay } from './presence-overlay';
export { usePresencePointer } from './use-presence-pointer';
