/**
 * What an import file is taken for (server/import/detect-format.ts), how a table is read
 * (csv-table.ts) and which columns fill which fields (column-mapping.ts, table-plan.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS } from '../../events/locations-csv.js';
import { guessMapping } from '../../server/import/column-mapping.js';
import { readCsvTable } from '../../server/import/csv-table.js';
import { detectFormat } from '../../server/import/detect-format.js';
import { mainKmlName } from '../../server/import/kmz.js';
import { flattenObject } from '../../server/import/store-locator.js';
import { planTable } from '../../server/import/table-plan.js';

const detect = (content: string | Uint8Array, filename = '', contentType = '') =>
  detectFormat({ filename, contentType, bytes: typeof content === 'string' ? new TextEncoder().encode(content) : content });
const formatOf = (content: string | Uint8Array, filename = '') => {
  const detected = detect(content, filename);
  return 'format' in detected ? detected.format : detected.refusal;
};

describe('detecting an import’s format', () => {
  it('tells every kind apart by its content', () => {
    expect(formatOf(JSON.stringify({ title: 'Mall', document: { version: 2, layers: [], locations: [] } }))).toBe('mapfold');
    expect(formatOf(JSON.stringify({ version: 2, layers: [], locations: [], groups: [] }))).toBe('mapfold');
    expect(formatOf(JSON.stringify({ mapwidth: 800, mapheight: 600, levels: [] }))).toBe('mapplic');
    expect(formatOf(JSON.stringify({ type: 'FeatureCollection', features: [] }))).toBe('geojson');
    expect(formatOf(JSON.stringify({ type: 'Point', coordinates: [1, 2] }))).toBe('geojson');
    expect(formatOf(JSON.stringify([{ name: 'A', lat: 1, lng: 2 }]))).toBe('store-locator');
    expect(formatOf(JSON.stringify({ meta: { count: 1 }, stores: [{ name: 'A' }] }))).toBe('store-locator');
    expect(formatOf('<?xml version="1.0"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>')).toBe('kml');
    expect(formatOf('<!-- drawn -->\n<svg xmlns="http://www.w3.org/2000/svg"/>')).toBe('svg');
    expect(formatOf('id,title,about,category,x,y,level\nde-by,Bayern,,states,0.6,0.7,germany\n')).toBe('mapplic-csv');
    expect(formatOf(`${CSV_COLUMNS.join(',')}\n`)).toBe('csv');
    expect(formatOf('\uFEFFname;lat;lng\nA;52,5;13,4\n')).toBe('csv');
    expect(formatOf('name\tlat\tlng\nA\t1\t2\n')).toBe('csv');
  });

  it('refuses what it cannot read in words: what the file is, and what to do', () => {
    const refusal = (content: string | Uint8Array, filename = '') => {
      const detected = detect(content, filename);
      return 'refusal' in detected ? detected.refusal : `taken for ${detected.format}`;
    };
    expect(refusal('')).toMatch(/^The file is empty\. Import a CSV/);
    expect(refusal(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]))).toMatch(/^The file is a PNG image, which has no locations to import\. Add it as a floor's drawing/);
    expect(refusal(new Uint8Array([0x50, 0x4b, 3, 4, 0, 0, 0xff]), 'stores.xlsx')).toMatch(/^The file is an Excel workbook, which the import cannot read\. Save the sheet as CSV/);
    expect(refusal(gzipSync('name,lat\n'))).toMatch(/^The file is not text in UTF-8/);
    expect(refusal('{"name": "A",')).toMatch(/^The file looks like JSON but cannot be read/);
    expect(refusal('{"hello": "world"}')).toMatch(/^The file is JSON, but not a kind the import reads/);
    expect(refusal('<gpx version="1.1"/>')).toMatch(/^The file is GPX/);
    expect(refusal('<html><body/></html>')).toMatch(/^The file is a web page/);
    expect(refusal('just some words')).toMatch(/^The file is text, but not a table/);
    for (const message of [refusal(''), refusal('{"hello": 1}'), refusal('{"a":')]) expect(message).not.toMatch(/zod|expected|received|schema/i);
  });
});

describe('reading a KMZ (zipped KML)', () => {
  const kml = '<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><name>A</name><Point><coordinates>1,2</coordinates></Point></Placemark></Document></kml>';
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('reads doc.kml, else the first KML at the top of the archive, and leaves its images', () => {
    const kmz = zipSync({ 'files/icon.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'doc.kml': bytes(kml) });
    expect(detect(kmz, 'places.kmz')).toEqual({ format: 'kml', text: kml, archived: 'doc.kml' });
    // ogr2ogr names it after the layer; the name (or its absence) does not matter.
    expect(detect(zipSync({ 'sample.kml': bytes(kml) }), '')).toMatchObject({ format: 'kml', archived: 'sample.kml' });
    expect(mainKmlName(['files/overlay.kml', '__MACOSX/._doc.kml', 'places.kml'])).toBe('places.kml');
    expect(mainKmlName(['files/overlay.kml'])).toBe('files/overlay.kml');
    expect(mainKmlName(['a.png'])).toBeNull();
  });

  it('refuses a KMZ without a KML, and a workbook, saying what each is', () => {
    expect(detect(zipSync({ 'icon.png': new Uint8Array([1, 2, 3]) }), 'empty.kmz')).toMatchObject({ refusal: expect.stringMatching(/^The file is a KMZ \(zipped KML\) file, which the import cannot read\. It holds no KML file/) });
    expect(detect(zipSync({ 'xl/workbook.xml': bytes('<workbook/>') }), 'stores.xlsx')).toMatchObject({ refusal: expect.stringMatching(/^The file is an Excel workbook/) });
  });
});

describe('reading text that is not UTF-8', () => {
  // "Mäkinen,Española" as Excel on Windows saves it, and a curly quote and € only Windows-1252 has (0x93, 0x80).
  const latin1 = new Uint8Array([...new TextEncoder().encode('name,lat,lng\nM'), 0xe4, ...new TextEncoder().encode('kinen Espa'), 0xf1, ...new TextEncoder().encode('ola,1,2\n'), 0x93, 0x80, 0x35, 0x94, ...new TextEncoder().encode(',3,4\n')]);

  it('reads a table in Windows-1252 (or Latin-1) as such, and says so', () => {
    const detected = detect(latin1, 'pop.csv');
    expect(detected).toMatchObject({ format: 'csv', encoding: 'windows-1252' });
    // A table whose first column is PK (as a zip's first bytes are) is a table all the same.
    expect(detect(new Uint8Array([...new TextEncoder().encode('PK,name\n1,M'), 0xe4, ...new TextEncoder().encode('kinen\n')]), 'keys.csv')).toMatchObject({ format: 'csv', encoding: 'windows-1252' });
    expect('format' in detected && readCsvTable(detected.text).rows).toEqual([['Mäkinen Española', '1', '2'], ['“€5”', '3', '4']]);
  });

  it('reads UTF-8 as UTF-8, with no word about encodings', () => {
    const detected = detect('name,lat,lng\nMäkinen,1,2\n', 'pop.csv');
    expect(detected).toEqual({ format: 'csv', text: 'name,lat,lng\nMäkinen,1,2\n' });
  });

  it('still refuses binary files, which no encoding makes text', () => {
    expect(detect(gzipSync('name,lat\n'))).toMatchObject({ refusal: expect.stringMatching(/^The file is not text in UTF-8/) });
    expect(detect(new Uint8Array([0x6e, 0x61, 0x6d, 0x65, 0x2c, 0xe4, 0x00, 0x01]))).toMatchObject({ refusal: expect.stringMatching(/^The file is not text/) });
  });
});

describe('reading a table', () => {
  it('sniffs the delimiter, drops the byte order mark, keeps quoted line breaks, names empty and repeated headers', () => {
    const table = readCsvTable('\uFEFFName;Notes;;Name\n"A";"two\nlines";x;y\nB\n');
    expect(table.delimiter).toBe(';');
    expect(table.columns).toEqual(['Name', 'Notes', 'column 3', 'Name (2)']);
    expect(table.rows).toEqual([['A', 'two\nlines', 'x', 'y'], ['B', '', '', '']]);
  });

  it('reads a table separated by colons, but never takes the colons of times in a comma file for separators', () => {
    const colons = readCsvTable('city:region:country:population\nSouthborough:MA:United States:9686\n');
    expect(colons).toMatchObject({ delimiter: ':', columns: ['city', 'region', 'country', 'population'], rows: [['Southborough', 'MA', 'United States', '9686']] });
    expect(formatOf('city:region:country:population\nSouthborough:MA:United States:9686\n', 'smallpop')).toBe('csv');
    // Every row with two times, a header without one, and rows ragged at their commas (papaparse's guess would take ':').
    const hours = readCsvTable('name,opens,closes,note\nBakery,07:00,18:00\nButcher,08:30,17:00,closed Sundays,\nCafe,09:00,23:00\n');
    expect(hours.delimiter).toBe(',');
    expect(hours.columns).toEqual(['name', 'opens', 'closes', 'note']);
    expect(hours.rows[0]).toEqual(['Bakery', '07:00', '18:00', '']);
    // One column of links is not split at "https:".
    expect(readCsvTable('url\nhttps://example.com\n').columns).toEqual(['url']);
  });

  it('reads quotes escaped with a backslash where doubling them does not read, and never a file that reads with doubled quotes', () => {
    // rust-csv's strange.csv (test/fixtures/realworld): `;`, no header, `\"` inside quotes, a `#` line, a row of one cell.
    const strange = readCsvTable(readFileSync(path.resolve(import.meta.dirname, '../fixtures/realworld/csv/rust-csv-strange-semicolon.csv'), 'utf8'));
    expect(strange.delimiter).toBe(';');
    expect(strange.columns).toEqual(['"Hacksaw" Jim Duggan', '1987']);
    expect(strange.rows.map((row) => row[0])).toEqual(['Bret "Hit Man" Hart', "# We're not sure when Rafael started, so omit the year.", 'Rafael Halperin', '"Big Cat" Ernie Ladd', '"Macho Man" Randy Savage', 'Jake "The Snake" Roberts']);
    expect(strange.errors).toEqual([]);
    expect(readCsvTable('name,note\n"A","say \\"hi\\" twice"\n"B","plain"\n').rows).toEqual([['A', 'say "hi" twice'], ['B', 'plain']]);
    // A backslash before a closing quote in a file that reads with doubled quotes is a backslash (a Windows path).
    expect(readCsvTable('name,path\n"A","C:\\"\n"B","x ""y"""\n').rows).toEqual([['A', 'C:\\'], ['B', 'x "y"']]);
  });

  it('reads 100,000 rows and more, with no cap', () => {
    const text = ['name,lat,lng', ...Array.from({ length: 120_000 }, (_, i) => `S${i},1,2`)].join('\n');
    expect(readCsvTable(text).rows).toHaveLength(120_000);
  });
});

describe('guessing the column mapping', () => {
  it('maps Mapfold’s own CSV export to itself', () => {
    const mapping = guessMapping([...CSV_COLUMNS]);
    for (const column of CSV_COLUMNS) expect(mapping[column as keyof typeof mapping], column).toBe(column);
  });

  it('knows the names people and tools use, whatever their case, spaces and underscores', () => {
    expect(guessMapping(['Store_Name', 'LATITUDE', 'Longitude', 'Store Number', 'Type', 'Telephone', 'Website', 'Photo', 'Level'])).toEqual({
      title: 'Store_Name', lat: 'LATITUDE', lng: 'Longitude', id: 'Store Number', groups: 'Type', phone: 'Telephone', link: 'Website', image: 'Photo', floor: 'Level',
    });
    expect(guessMapping(['name', 'lon', 'lat'])).toMatchObject({ title: 'name', lng: 'lon', lat: 'lat' });
    expect(guessMapping(['title', 'long', 'lat', 'y-coordinate'])).toMatchObject({ lng: 'long', lat: 'lat' });
    expect(guessMapping(['location.name', 'location.lat', 'location.lng', 'address.city'])).toMatchObject({ title: 'location.name', lat: 'location.lat', lng: 'location.lng' });
  });

  it('joins street, city, state, zip and country into the address, each part a field of the mapping the user sees', () => {
    const columns = ['name', 'street', 'city', 'state', 'zip', 'country'];
    const mapping = guessMapping(columns);
    expect(mapping).toEqual({ title: 'name', address: 'street', city: 'city', state: 'state', postcode: 'zip', country: 'country' });
    const plan = planTable('csv', { columns, rows: [['Shop', '1 Main St', 'Springfield', 'IL', '62701', 'US']] }, mapping);
    expect(plan.locations[0]!.fields.about).toBe('1 Main St, Springfield, IL, 62701, US');
    expect(plan.columns.ignored).toEqual([]);
  });

  it('reads groups as the export writes them, x/y between 0 and 1 as fractions, and a decimal comma', () => {
    const plan = planTable('csv', { columns: ['title', 'groups', 'x', 'y'], rows: [['A', '"Shoes, bags"; Toys', '0.5', '0,25']] }, { title: 'title', groups: 'groups', x: 'x', y: 'y' });
    expect(plan.locations[0]).toMatchObject({ groups: ['Shoes, bags', 'Toys'], position: { kind: 'fraction', x: 0.5, y: 0.25 } });
    expect(plan.problems[0]!.message).toMatch(/read as fractions of the floor’s width and height/);
  });

  it('flattens store-locator objects with dotted keys', () => {
    expect(Object.fromEntries(flattenObject({ name: 'A', geo: { lat: 1, lng: 2 }, tags: ['x', 'y'], hours: null }))).toEqual({ name: 'A', 'geo.lat': '1', 'geo.lng': '2', tags: 'x; y', hours: '' });
  });
});
