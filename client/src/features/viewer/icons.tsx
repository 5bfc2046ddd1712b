/**
 * The viewer's few icons, decorative (buttons carry the names): each a CSS mask in the text's
 * colour (icons.css holds the drawings), so the first script carries only their names.
 */
import './icons.css';

export type IconName = 'plus' | 'minus' | 'reset' | 'expand' | 'shrink' | 'close' | 'search' | 'share' | 'list' | 'clock' | 'phone' | 'link' | 'layers' | 'pin' | 'copy' | 'directions';

export function Icon({ name, size = 18 }: { name: IconName; size?: 16 | 17 | 18 }) {
  return <span className={`mf-icon mf-icon--${name}`} data-size={size === 18 ? undefined : size} aria-hidden="true" />;
}
