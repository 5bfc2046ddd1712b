/**
 * Any table of locations (CSV, TSV, semicolon separated): read with papaparse, its columns
 * mapped to fields (the user's mapping, the map's remembered one, or the guess).
 */
import type { ImportPlan } from '../../events/map-import.js';
import { readCsvTable } from './csv-table.js';
import type { ImportInput } from './import-input.js';
import { importRefusal } from './refusal.js';
import { chooseMapping, planTable, withStableKeyIds } from './table-plan.js';

export function parseCsv(input: ImportInput): ImportPlan {
  const table = readCsvTable(input.text);
  if (table.columns.length === 0) throw importRefusal('csv', 'it has no header row', 'Put the column names (such as name, latitude, longitude) in the first row.');
  if (table.rows.length === 0) throw importRefusal('csv', 'it has a header row and no rows under it', 'Add one row per location under the header.');
  const mapping = chooseMapping('csv', table.columns, input, table.rows);
  const problems = table.errors.slice(0, 100).map((error) => ({ row: error.row, field: null, message: `Row ${error.row} has a quote that is never closed, so it may have swallowed the rows after it: check the quotes in that row.` }));
  return withStableKeyIds(planTable('csv', table, mapping, problems), input.options);
}
