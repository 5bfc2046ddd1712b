import type { TemplateSummary } from '../api/new-map-api';
import type { StartingPointId } from '../starting-points';

export interface StartingPointNoteProps {
  start: Exclude<StartingPointId, 'upload' | 'import'>;
  /** The built-in map as the server describes it, when loaded. */
  template: TemplateSummary | undefined;
  /** Where a street map opens ("Europe", "the whole world"). */
  streetArea: string;
}

/** What a starting point without a file brings, under the cards. */
export function StartingPointNote({ start, template, streetArea }: StartingPointNoteProps) {
  if (start === 'blank') {
    return <p className="new-map__note">One empty floor to start with. Add a floor plan, more floors and places in the editor.</p>;
  }
  if (start === 'street') {
    return (
      <p className="new-map__note">
        One floor on a map of streets and towns, opening on {streetArea}. Place your locations on it in the editor, or import a list of addresses or
        coordinates there: the map fits itself to them.
      </p>
    );
  }
  const regions = start !== 'world' ? 'The 50 states and DC' : template ? `${template.regionCount} countries` : 'Every country';
  return (
    <p className="new-map__note">
      {regions}, each one a place named after it that you can describe, colour, group and link.{' '}
      <span className="new-map__source">Map data: {template?.source ?? (start === 'world' ? 'Natural Earth' : 'US Census Bureau')}.</span>
    </p>
  );
}
