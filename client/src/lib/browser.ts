/**
 * The few browser calls that leave the app, behind one object so tests can replace them
 * (jsdom cannot navigate to another site).
 */
export const browser = {
  /** Goes to another site, replacing the current history entry. */
  replaceLocation(url: string): void {
    window.location.replace(url);
  },
};
