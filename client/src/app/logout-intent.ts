/**
 * Whether this tab's own Log out button ended the session. The header sends the logout and
 * navigates home only once the server has answered (the session must be over before the page
 * says so); in between, the moment the session reads signed out, a signed-in-only page's guard
 * would send the visitor to /login. A guard reads this to send them home instead, where the
 * header was taking them anyway.
 */
let leaving = false;

/** Marks the logout as this tab's own until `done` (the header's navigation home) is called. */
export function beginLogout(): () => void {
  leaving = true;
  return () => {
    leaving = false;
  };
}

/** True while this tab is logging out by its own button. */
export function loggingOutHere(): boolean {
  return leaving;
}
