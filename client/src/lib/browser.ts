/**
 * The few browser calls that leave the app, behind one object so tests can replace them
 * (jsdom cannot navigate to another site).
 */
export const browser = {
  /** Goes to another site, replacing the current history entry. */
  replaceLocation(url: string): void {
    window.location.replace(url);
  },
  /** Goes to another site in a new history entry, so Back returns here (checkout, billing portal). */
  assignLocation(url: string): void {
    window.location.assign(url);
  },
};
