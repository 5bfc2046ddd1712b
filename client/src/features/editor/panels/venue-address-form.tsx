/**
 * The venue's postal address (settings.address, events/map-document.ts `VenueAddress`): what an
 * IMDF export (the Data panel) needs to hand the map to Apple Maps. Edited as a small form
 * saved whole, checked with the document's own schema; a refused field keeps its value and
 * says why.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { issueMessage } from '../../../../../events/issue-message';
import { VenueAddress, type VenueAddress as VenueAddressType } from '../../../../../events/map-document';

interface Props {
  address: VenueAddressType | undefined;
  /** Gives the settings with this address (or none); answers the reason when they are refused. */
  onAddress(address: VenueAddressType | undefined): string | null;
}

type Draft = Record<'address' | 'locality' | 'province' | 'country' | 'postalCode', string>;

const draftOf = (address: VenueAddressType | undefined): Draft => ({
  address: address?.address ?? '',
  locality: address?.locality ?? '',
  province: address?.province ?? '',
  country: address?.country ?? '',
  postalCode: address?.postalCode ?? '',
});

const FIELDS: ReadonlyArray<{ key: keyof Draft; label: string; placeholder: string; autoComplete: string }> = [
  { key: 'address', label: 'Street and number', placeholder: '1200 Riverside Boulevard', autoComplete: 'address-line1' },
  { key: 'locality', label: 'Town or city', placeholder: 'Sacramento', autoComplete: 'address-level2' },
  { key: 'province', label: 'State or region code (optional)', placeholder: 'US-CA', autoComplete: 'off' },
  { key: 'country', label: 'Country code', placeholder: 'US', autoComplete: 'off' },
  { key: 'postalCode', label: 'Postal code (optional)', placeholder: '95818', autoComplete: 'postal-code' },
];

export function VenueAddressForm({ address, onAddress }: Props) {
  const ids = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(address));
  const [problem, setProblem] = useState<{ field: keyof Draft | null; message: string } | null>(null);
  // Another editor's change (or an undo) shows as it arrives.
  useEffect(() => setDraft(draftOf(address)), [address]);

  const save = (event: FormEvent) => {
    event.preventDefault();
    const parsed = VenueAddress.safeParse({
      address: draft.address,
      locality: draft.locality,
      province: draft.province.trim().toUpperCase() || null,
      country: draft.country.trim().toUpperCase(),
      postalCode: draft.postalCode.trim() || null,
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      setProblem({ field: (issue.path[0] as keyof Draft | undefined) ?? null, message: issueMessage(issue) });
      return;
    }
    const refused = onAddress(parsed.data);
    setProblem(refused ? { field: null, message: refused } : null);
  };

  return (
    <form className="ep-address" onSubmit={save} noValidate>
      {FIELDS.map((field) => (
        <div className="ep-field" key={field.key}>
          <label htmlFor={`${ids}-${field.key}`}>{field.label}</label>
          <input
            id={`${ids}-${field.key}`}
            className="ep-input"
            value={draft[field.key]}
            placeholder={field.placeholder}
            autoComplete={field.autoComplete}
            aria-invalid={problem?.field === field.key ? true : undefined}
            aria-describedby={problem?.field === field.key ? `${ids}-problem` : undefined}
            onChange={(event) => setDraft({ ...draft, [field.key]: event.target.value })}
          />
        </div>
      ))}
      <p id={`${ids}-problem`} className="ep-error ep-status" aria-live="polite">
        {problem ? `${FIELDS.find((f) => f.key === problem.field)?.label ?? 'Address'}: ${problem.message}` : ''}
      </p>
      <div className="ep-button-row">
        <button type="submit" className="ep-button">
          Save address
        </button>
        {address ? (
          <button type="button" className="ep-button" onClick={() => setProblem(onAddress(undefined) ? { field: null, message: 'The address could not be removed.' } : null)}>
            Remove
          </button>
        ) : null}
      </div>
    </form>
  );
}
