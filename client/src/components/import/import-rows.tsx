/**
 * The import preview's row-by-row parts (import-preview.tsx): where the rows land floor by
 * floor, the first rows as they will be (or why one is left out), and the problems row by row.
 */
import { useId } from 'react';
import { IMPORT_FIELDS, type ImportField, type ImportPreview } from '../../../../events/map-import';
import { FIELD_LABELS } from './import-fields';
import { count, type PartHeading } from './import-words';

/** Problems named one by one; the rest are counted. */
export const PROBLEMS_SHOWN = 50;

/** A coordinate as the file most likely wrote it: at most 5 decimals (about a metre), no trailing zeros. */
const coordinate = (value: number) => String(Number(value.toFixed(5)));

function position(row: ImportPreview['sample'][number]): string {
  if (row.lat !== null && row.lng !== null) return `${coordinate(row.lat)}, ${coordinate(row.lng)}`;
  if (row.x !== null && row.y !== null) return `x ${Math.round(row.x)}, y ${Math.round(row.y)}`;
  return 'Not placed';
}

/** Where the locations land, floor by floor, and the empty starter floor the file's floors replace. */
export function Landing({ preview, heading: Title }: { preview: ImportPreview; heading: PartHeading }) {
  const id = useId();
  return (
    <div className="im-block" role="group" aria-labelledby={`${id}-title`}>
      <Title className="im-block__title" id={`${id}-title`}>
        Where it lands
      </Title>
      <ul className="im-floors">
        {preview.floors.map((floor) => {
          const what = [
            floor.locations > 0 ? count(floor.locations, 'new location', 'new locations') : null,
            floor.updated > 0 ? count(floor.updated, 'location updated', 'locations updated') : null,
          ].filter(Boolean);
          return (
            <li key={floor.id} className="im-floor">
              <span className="im-floor__name">{floor.name}</span>
              {floor.new ? <span className="im-tag">new floor</span> : null}
              <span className="im-floor__what">{what.length > 0 ? what.join(', ') : 'no locations'}</span>
            </li>
          );
        })}
      </ul>
      {preview.removedFloor !== null ? (
        <p className="im-hint">
          This map’s empty floor “{preview.removedFloor}” is replaced by the file’s {preview.floors.filter((f) => f.new).length === 1 ? 'floor' : 'floors'}.
        </p>
      ) : null}
    </div>
  );
}

/** What becomes of a row, in a word. */
function outcome(row: ImportPreview['sample'][number]): { word: string; kind: string } {
  if (row.skipped !== null) return { word: 'Left out', kind: 'skipped' };
  return row.update ? { word: 'Updates', kind: 'update' } : { word: 'New', kind: 'new' };
}

export function SampleTable({ preview, heading: Title }: { preview: ImportPreview; heading: PartHeading }) {
  const id = useId();
  const rows = preview.sample;
  const geo = rows.some((row) => row.lat !== null);
  const more = preview.counts.locations + preview.counts.updated + preview.counts.skipped - rows.length;
  // One floor for every row (the plan says so, not the sample): said above, the table stays narrow.
  const oneFloor = preview.floors.filter((floor) => floor.locations + floor.updated > 0).length <= 1;
  const grouped = rows.some((row) => row.groups.length > 0);
  const columns = 4 + (oneFloor ? 0 : 1) + (grouped ? 1 : 0);
  return (
    <div className="im-block">
      <Title className="im-block__title" id={`${id}-title`}>
        First rows
      </Title>
      <div className="im-table-wrap" tabIndex={0} role="group" aria-labelledby={`${id}-title`}>
        <table className="im-table">
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Name</th>
              <th scope="col">Becomes</th>
              <th scope="col">{geo ? 'Lat, lng' : 'Position'}</th>
              {oneFloor ? null : <th scope="col">Floor</th>}
              {grouped ? <th scope="col">Groups</th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const { word, kind } = outcome(row);
              return (
                <tr key={`${row.row}-${row.id}`} data-outcome={kind}>
                  <td className="im-table__num">{row.row}</td>
                  {row.skipped !== null ? (
                    // Why, across the row: the reason reads as a sentence, not squeezed into one column.
                    <td colSpan={columns - 1}>
                      {row.title || <span className="im-empty">(no name)</span>}{' '}
                      <span className="im-outcome" data-kind={kind}>
                        {word}
                      </span>
                      <span className="im-table__why">{row.skipped}</span>
                    </td>
                  ) : (
                    <>
                      <td>{row.title || <span className="im-empty">(no name)</span>}</td>
                      <td>
                        <span className="im-outcome" data-kind={kind}>
                          {word}
                        </span>
                      </td>
                      <td className="im-table__num">
                        {position(row)}
                        {row.region ? <span className="im-tag im-tag--quiet">region {row.region}</span> : null}
                      </td>
                      {oneFloor ? null : <td>{row.floor}</td>}
                      {grouped ? <td>{row.groups.join(', ') || <span className="im-empty">–</span>}</td> : null}
                    </>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {more > 0 ? <p className="im-hint">And {count(more, 'more row', 'more rows')}.</p> : null}
    </div>
  );
}

export function ProblemList({ preview, heading: Title }: { preview: ImportPreview; heading: PartHeading }) {
  const id = useId();
  const shown = preview.problems.slice(0, PROBLEMS_SHOWN);
  const more = preview.problemCount - shown.length;
  return (
    <div className="im-block im-problems">
      <Title className="im-block__title" id={`${id}-title`}>
        {count(preview.problemCount, 'problem', 'problems')}
      </Title>
      <ul aria-labelledby={`${id}-title`}>
        {shown.map((problem, index) => (
          <li key={index}>
            {problem.row !== null || problem.field !== null ? (
              <span className="im-problem__where">
                {[problem.row !== null ? `Row ${problem.row}` : null, problem.field !== null ? fieldName(problem.field) : null].filter(Boolean).join(', ')}:
              </span>
            ) : null}{' '}
            {problem.message}
          </li>
        ))}
      </ul>
      {more > 0 ? <p className="im-hint">and {count(more, 'more problem', 'more problems')}.</p> : null}
    </div>
  );
}

/** A field's name in words when it is one of ours, else the file's column as it is. */
function fieldName(field: string): string {
  return (IMPORT_FIELDS as readonly string[]).includes(field) ? FIELD_LABELS[field as ImportField] : field;
}
