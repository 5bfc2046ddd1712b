/**
 * A table from CSV text: comma, tab, semicolon or bar separated (papaparse sniffs which) or
 * colon separated (isColonSeparated), with or without a byte order mark, quoted cells and line
 * breaks inside them, quotes inside quotes doubled or (where doubling does not read) escaped
 * with a backslash. Read row by row
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
  const colons = isColonSeparated(text);
  const doubled = readWith(text, colons ? ':' : undefined, '"');
  // Quotes escaped with a backslash (`"Bret \\"Hit Man\\" Hart"`, as some programs write CSV)
  // instead of doubled: read that way when the doubled reading breaks on a quote and a
  // backslash reading breaks on none, so a file that reads as CSV is never read otherwise.
  // Papaparse sniffs its delimiter with doubled quotes only, so each is tried: the one that
  // splits the most rows into as many cells as the header (two or more) is taken.
  if (doubled.quoteFaults > 0 && text.includes('\\"')) {
    let best: { table: CsvTable; regular: number } | null = null;
    for (const delimiter of colons ? [':'] : [',', ';', '\t', '|']) {
      const { table, quoteFaults } = readWith(text, delimiter, '\\');
      if (quoteFaults > 0 || table.columns.length < 2) continue;
      const regular = table.rows.filter((row) => row.length === table.columns.length).length;
      if (!best || regular > best.regular) best = { table, regular };
    }
    if (best) return best.table;
  }
  return doubled.table;
}

/** The table read with this escape for a quote inside quotes, and how many quote faults papaparse found (the header's too). */
function readWith(text: string, delimiterGiven: string | undefined, escapeChar: string): { table: CsvTable; quoteFaults: number } {
  let header: string[] | null = null;
  const rows: string[][] = [];
  const errors: CsvTable['errors'] = [];
  let quoteFaults = 0;
  let delimiter = delimiterGiven ?? ',';
  Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), {
    ...(delimiterGiven ? { delimiter: delimiterGiven } : {}),
    escapeChar,
    skipEmptyLines: 'greedy',
    step: (result) => {
      delimiter = result.meta.delimiter || delimiter;
      const cells = result.data.map((cell) => (typeof cell === 'string' ? cell : String(cell ?? '')));
      quoteFaults += result.errors.filter((error) => error.type === 'Quotes').length;
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
  return { table: { columns, rows, delimiter, errors }, quoteFaults };
}
