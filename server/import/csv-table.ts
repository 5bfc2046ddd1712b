/**
 * A table from CSV text: comma, tab, semicolon or bar separated (papaparse sniffs which) or
 * colon separated (isColonSeparated), with or without a byte order mark, quoted cells and line
 * breaks inside them. Read row by row
 * (papaparse's `step`), keeping only the cells: a 100,000-row store list is a few arrays of
 * strings, never 100,000 objects. No row cap: the map's own limit is the planner's to tell.
 */
import Papa from 'papaparse';

export interface CsvTable {
  /** Header cells, trimmed; an empty or repeated one gets a name of its own ("column 3", "name (2)"). */
  columns: string[];
  /** Data rows, one cell per column ('' where a row is short). */
  rows: string[][];
  /** The delimiter found. */
  delimiter: string;
  /** Lines papaparse could not read as rows (an unclosed quote), 1-based data rows. */
  errors: Array<{ row: number; message: string }>;
}

/** Names for the header's cells: trimmed, none empty, none repeated. */
export function uniqueColumns(header: readonly string[]): string[] {
  const seen = new Set<string>();
  return header.map((raw, index) => {
    const base = raw.trim() || `column ${index + 1}`;
    let name = base;
    for (let n = 2; seen.has(name.toLowerCase()); n++) name = `${base} (${n})`;
    seen.add(name.toLowerCase());
    return name;
  });
}

/**
 * Whether a table is separated by colons (`city:region:country:population`). Papaparse is not
 * asked to guess ':' among the others, as it takes the most regular count, and a comma file
 * with a time in every row (`09:00`) may split more regularly at its colons. So ':' only when
 * the header has none of the usual separators and it and the first row split into the same
 * number (two or more) of cells at their colons.
 */
export function isColonSeparated(text: string): boolean {
  // The first 64 KB hold the header and the first row of any table: a 50 MB file is not split whole.
  const [header, first] = text.slice(0, 65_536).replace(/^\uFEFF/, '').split(/\r\n|\n|\r/, 20).filter((line) => line.trim() !== '');
  if (header === undefined || first === undefined || /[,\t;|]/.test(header)) return false;
  const cells = header.split(':').length;
  return cells >= 2 && first.split(':').length === cells;
}

export function readCsvTable(text: string): CsvTable {
  let header: string[] | null = null;
  const rows: string[][] = [];
  const errors: CsvTable['errors'] = [];
  const colons = isColonSeparated(text);
  let delimiter = colons ? ':' : ',';
  Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    ...(colons ? { delimiter: ':' } : {}),
    skipEmptyLines: 'greedy',
    step: (result) => {
      delimiter = result.meta.delimiter || delimiter;
      const cells = result.data.map((cell) => (typeof cell === 'string' ? cell : String(cell ?? '')));
      if (header === null) {
        header = cells;
        return;
      }
      for (const error of result.errors) {
        // A short or long row is read as it is (cells padded or extra ones ignored); broken quotes are said.
        if (error.type === 'Quotes') errors.push({ row: rows.length + 1, message: error.message });
      }
      rows.push(cells);
    },
  });
  const columns = uniqueColumns(header ?? []);
  for (const row of rows) {
    while (row.length < columns.length) row.push('');
  }
  return { columns, rows, delimiter, errors };
}
