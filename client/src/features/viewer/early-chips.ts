/**
 * The directory's group chips pressed before it hydrates (issue 29): React does not replay a
 * click on a part of the server's page it has not hydrated yet (the directory hydrates with its
 * own chunk, hydrated-later.ts), so the entry listens from before hydrating and flips the chip's
 * aria-pressed; the directory, as it hydrates, stops this and applies the chips as pressed
 * (directory.tsx). A few bytes of the first load.
 */
const flip = (event: Event) => {
  const chip = (event.target as Element).closest?.('.mf-chip');
  chip?.setAttribute('aria-pressed', `${chip.ariaPressed != 'true'}`);
};
export const listenEarlyChips = () => addEventListener('click', flip, true);
export const stopEarlyChips = () => removeEventListener('click', flip, true);
