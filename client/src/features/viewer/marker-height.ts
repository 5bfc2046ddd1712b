/** How far above its anchor a popup or tooltip sits, by marker type (popup.tsx, tooltip.tsx). */
import type { Location } from '../../components/map/types';

export const MARKER_HEIGHT: Record<Location['marker'], number> = { pin: 40, circle: 18, dot: 12, thumbnail: 28, label: 18, hidden: 8 };
