/**
 * The slots at the top of the maps page (spec §2, §9): Basic, Pro and Test usage from the
 * `billing:{uid}` topic. Until that topic's first snapshot it shows the free test maps counted
 * from the list, so the page never waits on billing to say how many test maps are left.
 */
import { Link } from 'react-router-dom';
import type { SlotUsage } from '../../../../../events/billing-api';
import { FREE_TEST_SLOTS } from '../../../../../events/map-states';
import { SlotMeter } from '../../../components/slot-meter';

export interface SlotSummaryProps {
  /** From the billing topic; undefined until its first snapshot. */
  slots: SlotUsage | undefined;
  admin: boolean;
  /** Test maps in the list (undefined while the list loads). */
  testMaps: number | undefined;
  subscribeHref: string;
}

export function SlotSummary({ slots, admin, testMaps, subscribeHref }: SlotSummaryProps) {
  if (slots) {
    const paid = slots.basic.total + slots.pro.total;
    return (
      <div className="slot-summary" aria-live="polite">
        <div className="slot-summary__head">
          <span className="slot-summary__title">Your slots</span>
          <Link className="slot-summary__link" to={subscribeHref}>
            {paid > 0 ? 'Add slots' : 'Subscribe'}
          </Link>
        </div>
        <SlotMeter slots={slots} className="slot-summary__meter" />
      </div>
    );
  }
  return (
    <div className="slot-usage" aria-live="polite">
      {admin ? (
        <span className="slot-usage__text">Admin: unlimited test maps</span>
      ) : (
        <>
          <span className="slot-usage__text">
            Free test maps <strong>{testMaps !== undefined ? `${testMaps}/${FREE_TEST_SLOTS}` : `–/${FREE_TEST_SLOTS}`}</strong>
          </span>
          <span className="slot-usage__meter" aria-hidden="true">
            {Array.from({ length: FREE_TEST_SLOTS }, (_, i) => (
              <span key={i} className={testMaps !== undefined && i < testMaps ? 'is-used' : undefined} />
            ))}
          </span>
        </>
      )}
    </div>
  );
}
