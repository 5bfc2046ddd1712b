/**
 * What a slot needs, said before the card (spec §1, §2): each map needs its own licence, bought
 * through a marketplace and registered on the map, and slots only work with registered maps.
 * At the top of the plan picker, with the way to buy one and where its purchase code goes, so
 * nobody pays for a slot they cannot use yet.
 */
import { LICENCE_BASIC_MONTHS, SLOTS_NEED_REGISTERED_MAPS } from '../../../../events/billing-api';
import { config } from '../../lib/config';

export function LicenceRequirement({ headingId }: { headingId: string }) {
  return (
    <section className="licence-requirement" aria-labelledby={headingId}>
      <div className="licence-requirement__icon" aria-hidden="true">
        <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
          <path d="M15 7a4 4 0 1 1-3.9 4.9L4 19v2h3v-2h2v-2h2l1.1-1.1A4 4 0 0 1 15 7zM16.5 9.5h.01" />
        </svg>
      </div>
      <div className="licence-requirement__body">
        <h3 id={headingId} className="licence-requirement__title">
          Before you subscribe: a licence for each map
        </h3>
        <p className="licence-requirement__text">{SLOTS_NEED_REGISTERED_MAPS}</p>
        <ol className="licence-requirement__steps">
          <li>Buy a licence for each map you will publish.</li>
          <li>
            Register its purchase code in the map’s <strong>Publish</strong> panel: the map gets {LICENCE_BASIC_MONTHS} months of Basic, no slot needed.
          </li>
          <li>Subscribe for slots when you need Professional, or when those months end.</li>
        </ol>
        <a className="licence-requirement__buy" href={config.marketplaceUrl} target="_blank" rel="noopener noreferrer">
          Buy a licence on the marketplace
          <span className="visually-hidden"> (opens in a new tab)</span>
          <svg viewBox="0 0 16 16" width="13" height="13" aria-hidden="true" focusable="false">
            <path d="M6 3h7v7M13 3 5 11" fill="none" stroke="currentColor" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </a>
      </div>
    </section>
  );
}
