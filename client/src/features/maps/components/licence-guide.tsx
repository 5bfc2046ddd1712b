/**
 * Shown on /maps when the visitor came from the landing page's marketplace offer (`?licence=1`):
 * where the purchase code goes. Someone with no map yet is offered to make one first.
 */
import { useSearchParams } from 'react-router-dom';
import { LICENCE_BASIC_MONTHS } from '../../../../../events/billing-api';
import { ButtonLink } from '../../../components/ui/button';

export const LICENCE_PARAM = 'licence';

export function LicenceGuide({ hasMaps, newMapHref }: { hasMaps: boolean | undefined; newMapHref: string }) {
  const [params, setParams] = useSearchParams();
  if (params.get(LICENCE_PARAM) !== '1') return null;

  const close = () =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete(LICENCE_PARAM);
        return next;
      },
      { replace: true },
    );

  return (
    <section className="licence-guide card" aria-labelledby="licence-guide-title">
      <div className="licence-guide__icon" aria-hidden="true">
        <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
          <path d="M15 7a4 4 0 1 1-3.9 4.9L4 19v2h3v-2h2v-2h2l1.1-1.1A4 4 0 0 1 15 7zM16.5 9.5h.01" />
        </svg>
      </div>
      <div className="licence-guide__body">
        <h2 id="licence-guide-title" className="licence-guide__title">
          Register your purchase code
        </h2>
        <p className="licence-guide__text">
          Open a map, then <strong>Publish → Register a purchase code</strong>. The licence gives that map {LICENCE_BASIC_MONTHS} months of Basic, free.
        </p>
        {hasMaps === false ? (
          <ButtonLink to={newMapHref} size="sm" className="licence-guide__action">
            Create a map
          </ButtonLink>
        ) : null}
      </div>
      <button type="button" className="licence-guide__close" aria-label="Close the guide" onClick={close}>
        <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden="true">
          <path d="M6 6l12 12M18 6L6 18" />
        </svg>
      </button>
    </section>
  );
}
