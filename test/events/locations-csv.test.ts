/** Locations as CSV: export, then import with a preview that says why each rejected row is rejected. */
import { describe, expect, it } from 'vitest';
import { exportLocationsCsv, importLocationsCsv } from '../../events/locations-csv.js';
import { emptyMapDocument, MapDocument } from '../../events/map-document.js';
import { applyEdit } from '../../events/map-edits.js';

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
    expect(lines[0]).toBe('id,title,about,layer,x,y,element,marker,color,label,groups,link,phone,hours,image,thumbnail,hidden');
    // A leading + (a phone number) reads as a formula to a spreadsheet too: quoted, and unquoted on import.
    expect(lines[1]).toBe("cafe,Café Lumière,\"Coffee, cake\",Ground floor,12.5,40,,pin,,,Food & drink,,'+1 555 0100,,,,no");
    expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil"")"`);
  });

  it('reads its own export back to the same locations', () => {
    const again = importLocationsCsv(document, exportLocationsCsv(document));
    expect(again.rejected).toEqual([]);
    expect(again.updated).toEqual(document.locations);
    expect(again.added).toEqual([]);
  });

  it('adds new rows with ids made from titles, and says why each bad row is refused', () => {
    const csv = [
      'Title,Groups,X,Y,Marker,Layer,Link',
      'Bäckerei Müller,food,1,2,dot,,',
      'Bäckerei Müller,shops;food,,,,Ground floor,https://baker.example',
      ',food,,,,,',
      'No group,toys,,,,,',
      'Half a point,,5,,,,',
      'Bad marker,,,,star,,',
      'Attic,,,,,attic,',
      'Scripted,,,,,,javascript:alert(1)',
      'NaN spot,,x,y,,,',
    ].join('\n');
    const result = importLocationsCsv(document, csv);
    expect(result.added.map((l) => [l.id, l.title, l.groups, l.marker])).toEqual([
      ['backerei-muller', 'Bäckerei Müller', ['food'], 'dot'],
      ['backerei-muller-2', 'Bäckerei Müller', ['shops', 'food'], 'pin'],
    ]);
    expect(result.rejected).toEqual([
      { line: 4, reason: 'title: is required' },
      { line: 5, reason: 'groups: there is no group "toys"' },
      { line: 6, reason: 'x, y: give both coordinates or neither' },
      { line: 7, reason: 'marker: must be one of circle, dot, pin, label, thumbnail, hidden' },
      { line: 8, reason: 'layer: there is no layer "attic"' },
      { line: 9, reason: 'link: must be an http(s) address or an uploaded file' },
      { line: 10, reason: 'x, y: must be numbers' },
    ]);
    const applied = result.edits.reduce(applyEdit, document);
    expect(applied.locations).toHaveLength(4);
  });

  it('needs a title column', () => {
    expect(importLocationsCsv(document, 'name,x\nA,1').rejected).toEqual([{ line: 1, reason: 'The file needs a "title" column.' }]);
  });
});
