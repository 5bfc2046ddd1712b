/**
 * The slot meter (spec §2, §9): Basic, Pro and Test usage as count/total, drawn as one segment
 * per slot up to eight slots and as a proportional bar above that (eighty segments would be
 * unreadable). Each row is a `meter` for assistive technology; unlimited test slots (admins)
 * are text only. Reusable: the plan cards show one row, the maps page all three.
 */
import { SLOT_SEGMENTS_MAX, type SlotUsage } from '../../../events/billing-api';
import './slot-meter.css';

export type SlotKind = keyof SlotUsage;

const LABELS: Record<SlotKind, string> = { basic: 'Basic', pro: 'Pro', test: 'Test' };
const DESCRIPTIONS: Record<SlotKind, string> = { basic: 'Basic slots', pro: 'Pro slots', test: 'Free test slots' };

export interface SlotMeterProps {
  slots: SlotUsage;
  /** Which rows to show, in this order; all three by default. */
  kinds?: readonly SlotKind[];
  /** Shown above the rows (hidden when absent). */
  title?: string;
  className?: string;
}

export function SlotMeter({ slots, kinds = ['basic', 'pro', 'test'], title, className }: SlotMeterProps) {
  return (
    <div className={['slot-meter', className].filter(Boolean).join(' ')}>
      {title ? <p className="slot-meter__title">{title}</p> : null}
      <ul className="slot-meter__rows">
        {kinds.map((kind) => (
          <li key={kind}>
            <SlotRow kind={kind} used={slots[kind].used} total={slots[kind].total} />
          </li>
        ))}
      </ul>
    </div>
  );
}

function SlotRow({ kind, used, total }: { kind: SlotKind; used: number; total: number | null }) {
  const label = LABELS[kind];
  if (total === null) {
    return (
      <div className="slot-meter__row">
        <span className="slot-meter__label">{label}</span>
        <span className="slot-meter__unlimited">Unlimited</span>
        <span className="slot-meter__count" aria-label={`${used} used, unlimited`}>
          {used}/∞
        </span>
      </div>
    );
  }
  const over = used > total;
  const valueText = `${used} of ${total} ${DESCRIPTIONS[kind].toLowerCase()} used`;
  return (
    <div className="slot-meter__row">
      <span className="slot-meter__label">{label}</span>
      <div
        role="meter"
        aria-label={DESCRIPTIONS[kind]}
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={Math.min(used, total)}
        aria-valuetext={over ? `${valueText} (over the limit)` : valueText}
        className={['slot-meter__track', over ? 'slot-meter__track--over' : ''].filter(Boolean).join(' ')}
      >
        {total > 0 && total <= SLOT_SEGMENTS_MAX ? (
          <span className="slot-meter__segments" data-kind={kind}>
            {Array.from({ length: total }, (_, index) => (
              <span key={index} className={index < used ? 'slot-meter__segment slot-meter__segment--used' : 'slot-meter__segment'} />
            ))}
          </span>
        ) : (
          <span className="slot-meter__bar" data-kind={kind}>
            <span className="slot-meter__fill" style={{ width: `${total > 0 ? Math.min(100, (used / total) * 100) : 0}%` }} />
          </span>
        )}
      </div>
      <span className={over ? 'slot-meter__count slot-meter__count--over' : 'slot-meter__count'} aria-hidden="true">
        {used}/{total}
      </span>
    </div>
  );
}
