/** Locations as CSV: every field written, formula-like cells guarded (the import endpoint reads it back: test/server/import-round-trip.test.ts). */
import { describe, expect, it } from 'vitest';
import Papa from 'papaparse';
import { CSV_COLUMNS, exportLocationsCsv, fromCell, toCell } from '../../events/locations-csv.js';
import { splitGroupNames } from '../../events/group-list.js';
import { emptyMapDocument, MapDocument } from '../../events/map-document.js';

const document = MapDocument.parse({
  ...emptyMapDocument(),
  groups: [{ id: 'food', name: 'Food & drink', color: '#f97316' }, { id: 'shops', name: 'Shops', color: '#0ea5e9' }],
  locations: [
    { id: 'cafe', title: 'Café Lumière', layer: 'ground', position: { x: 12.5, y: 40 }, groups: ['food'], phone: '+1 555 0100', about: 'Coffee, cake' },
    { id: 'books', title: '=HYPERLINK("http://evil")', layer: 'ground', groups: ['shops'], hidden: true },
  ],
});

describe('locations CSV', () => {
  it('exports every location with names for groups and layers, and defuses formula cells', () => {
    const csv = exportLocationsCsv(document);
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('id,title,about,description,floor,x,y,lat,lng,element,zoom,marker,color,label,groups,link,phone,hours,image,thumbnail,hidden,precision');
    // A leading + (a phone number) reads as a formula to a spreadsheet too: quoted, and unquoted on import.
    expect(lines[1]).toBe("cafe,Café Lumière,\"Coffee, cake\",,Ground floor,12.5,40,,,,,pin,,,Food & drink,,'+1 555 0100,,,,no,");
    expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });

  it('writes every field: description, zoom, colour, groups whose names hold ; , and quotes, lat/lng on a calibrated floor', () => {
    const rich = MapDocument.parse({
      ...emptyMapDocument(),
      settings: { ...emptyMapDocument().settings, size: { width: 1000, height: 500 }, defaultLayer: 'world' },
      layers: [
        { id: 'world', name: 'World', geo: { kind: 'bounds', projection: 'equirectangular', north: 90, south: -90, west: -180, east: 180 } },
        { id: 'plan', name: 'Plan, level 2' },
      ],
      groups: [
        { id: 'a', name: 'Shoes; bags', color: '#111111' },
        { id: 'b', name: 'Toys, games', color: '#222222' },
        { id: 'c', name: 'The "best"', color: '#333333' },
      ],
      locations: [
        {
          id: 'paris', title: 'Paris', layer: 'world', position: { x: 506.5, y: 114.2 }, groups: ['a', 'b', 'c'], zoom: 4, color: '#ff0000',
          description: '<p>Line one,\n<b>"two"</b></p>', marker: 'dot', label: 'P', link: 'https://example.com/p', hidden: true, precision: 'city',
        },
        { id: 'shop', title: 'Shop', layer: 'plan', position: { x: -3, y: 7 }, element: 'shop-1' },
      ],
    });
    const parsed = Papa.parse<Record<string, string>>(exportLocationsCsv(rich), { header: true });
    expect(parsed.meta.fields).toEqual([...CSV_COLUMNS]);
    const [paris, shop] = parsed.data;
    expect(paris).toMatchObject({
      id: 'paris', floor: 'World', x: '506.5', y: '114.2', zoom: '4', color: '#ff0000', marker: 'dot', label: 'P', hidden: 'yes',
      description: '<p>Line one,\n<b>"two"</b></p>', link: 'https://example.com/p', precision: 'city',
    });
    expect(Number(paris!.lat)).toBeCloseTo(90 - (114.2 / 500) * 180, 6);
    expect(Number(paris!.lng)).toBeCloseTo(-180 + (506.5 / 1000) * 360, 6);
    expect(splitGroupNames(paris!.groups!)).toEqual(['Shoes; bags', 'Toys, games', 'The "best"']);
    // A negative coordinate is a number, not a formula: written as it is. No lat/lng off a calibrated floor.
    expect(shop).toMatchObject({ floor: 'Plan, level 2', x: '-3', y: '7', lat: '', lng: '', element: 'shop-1', zoom: '', hidden: 'no', precision: '' });
  });

  it('guards formula-like cells and takes the guard off again', () => {
    for (const value of ['=1+1', '+1 555', '-x', '@SUM(A1)', '\tx']) {
      expect(toCell(value)).toBe(`'${value}`);
      expect(fromCell(toCell(value))).toBe(value);
    }
    for (const value of ['-12.5', '+3', '1e-7', "'quoted", 'plain']) {
      expect(fromCell(toCell(value))).toBe(value);
    }
    expect(toCell('-12.5')).toBe('-12.5');
  });
});
