/**
 * SVG drawings through POST /api/maps/{id}/import (format `svg`), on the real HTTP app with
 * real drawings (test/fixtures/import/svg, see SOURCES.md): a new floor whose drawing is the
 * file and one location per region, titled from the drawing; unticked and auto-generated ids
 * left out; `?layer=` making the regions of an existing floor its locations, those linked
 * already left out; what the sanitiser removed said in the preview's problems.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ImportPreview } from '../../events/map-import.js';
import type { MapDocument } from '../../events/map-document.js';
import { pgliteTarget } from '../support/databases.js';
import { call, projected, registerUser, startTestServer, type TestServer, type TestUser } from '../support/test-server.js';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/import/svg/${name}`, import.meta.url), 'utf8');
const AMCHARTS = fixture('amcharts-usa-low-cut.svg');
const BLANK_US = fixture('blank-us-map-two-letter-cut.svg');
const AMCHARTS_IDS = ['US-AL', 'US-AR', 'US-AZ', 'US-CA', 'US-CO', 'US-CT', 'US-DC', 'US-DE'];

describe('SVG imports', () => {
  let server: TestServer;
  let owner: TestUser;

  beforeAll(async () => {
    server = await startTestServer(pgliteTarget);
  }, 60_000);
  afterAll(() => server?.close());
  beforeEach(async () => {
    owner = await registerUser(server);
  });

  const newMap = async (title: string): Promise<string> => {
    const answer = await call(server, 'createMap', { title }, owner);
    if (answer.status !== 200) throw new Error(JSON.stringify(answer.body));
    return answer.body.result;
  };
  const documentOf = async (mapId: string): Promise<MapDocument> =>
    ((await (await fetch(`${server.url}/api/maps/${mapId}/data`, { headers: { cookie: owner.cookie } })).json()) as { result: { data: MapDocument } }).result.data;

  async function importSvg(mapId: string, svg: string, query: Record<string, string> = {}): Promise<{ status: number; result: ImportPreview; error: { message: string } | undefined }> {
    const search = new URLSearchParams(query).toString();
    const response = await fetch(`${server.url}/api/maps/${mapId}/import${search ? `?${search}` : ''}`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'image/svg+xml' },
      body: svg,
    });
    const body = (await response.json()) as { result: ImportPreview; position?: unknown; error?: { message: string } };
    if (body.position) await projected(server, body.position as never);
    return { status: response.status, result: body.result, error: body.error };
  }

  it('previews an amCharts map (no viewBox, width 100%) as a new floor with a location per region, changing nothing', async () => {
    const mapId = await newMap('States');
    const before = await documentOf(mapId);
    const preview = await importSvg(mapId, AMCHARTS, { filename: 'usaLow.svg' });
    expect(preview.status, JSON.stringify(preview)).toBe(200);
    expect(preview.result).toMatchObject({ format: 'svg', revision: null, replaces: false, counts: { layers: 1, locations: 8, regionsLinked: 8, groups: 0, skipped: 0 } });
    expect(preview.result.regions).toEqual(AMCHARTS_IDS.map((id) => expect.objectContaining({ id, selected: true, linked: false })));
    expect(preview.result.regions.map((region) => region.title)).toEqual(['Alabama', 'Arkansas', 'Arizona', 'California', 'Colorado', 'Connecticut', 'Washington, DC', 'Delaware']);
    expect(preview.result.sample[0]).toMatchObject({ title: 'Alabama', region: 'US-AL', x: null, y: null });
    expect(await documentOf(mapId)).toEqual(before);
  });

  it('applies it: the floor carries the sanitised drawing, measured by what it draws, and every location stands for its region', async () => {
    const mapId = await newMap('States');
    const applied = await importSvg(mapId, AMCHARTS, { filename: 'usaLow.svg', apply: '1' });
    expect(applied.status, JSON.stringify(applied)).toBe(200);
    expect(applied.result.revision).not.toBeNull();
    const document = await documentOf(mapId);
    const floor = document.layers.at(-1)!;
    expect(floor.name).toBe('usaLow');
    expect(floor.file).toMatchObject({ kind: 'svg' });
    // The states' box (Arizona's west edge to Connecticut's east, Connecticut's top to Alabama's bottom), widened by half the 0.5 stroke… of none: the stroke is in CSS.
    expect(floor.file!.width).toBeCloseTo(1038.24 - 144.55, 1);
    expect(floor.file!.height).toBeCloseTo(514.18 - 181.87, 1);
    const stored = await (await fetch(`${server.url}${floor.file!.url}`)).text();
    expect(stored).toMatch(/viewBox="144\.55 181\.87 /);
    expect(stored).toContain('data-name="Alabama"');
    const locations = document.locations.filter((location) => location.layer === floor.id);
    expect(locations.map((location) => [location.id, location.title, location.element, location.position])).toEqual(
      AMCHARTS_IDS.map((id, index) => [id, applied.result.regions[index]!.title, id, null]),
    );
  });

  it('titles two-letter ids as states on a US map, and says what the sanitiser removed', async () => {
    const mapId = await newMap('Blank US');
    const preview = await importSvg(mapId, BLANK_US, { filename: 'Blank_US_Map.svg' });
    expect(preview.status, JSON.stringify(preview)).toBe(200);
    expect(preview.result.regions.map((region) => [region.id, region.title])).toEqual([
      ['HI', 'Hawaii'], ['VT', 'Vermont'], ['RI', 'Rhode Island'], ['NJ', 'New Jersey'], ['DE', 'Delaware'],
    ]);
    expect(preview.result.problems.map((problem) => problem.message)).toContain('The drawing “Blank_US_Map.svg”: 1 script was removed: a drawing on a map cannot run code.');
  });

  it('leaves out the regions the user unticked, and auto-generated ids unless ticked', async () => {
    const mapId = await newMap('Ticks');
    const drawing = AMCHARTS.replace('id="US-DC" title="Washington, DC"', 'id="path3677"');
    const preview = await importSvg(mapId, drawing, { mapping: JSON.stringify({ skipRegions: ['US-CA', 'US-CO'] }) });
    expect(preview.status, JSON.stringify(preview)).toBe(200);
    expect(preview.result.counts.locations).toBe(5);
    const ticks = Object.fromEntries(preview.result.regions.map((region) => [region.id, region.selected]));
    expect(ticks).toMatchObject({ 'US-CA': false, 'US-CO': false, path3677: false, 'US-AL': true });
    expect(preview.result.problems.map((problem) => problem.message).join('\n')).toMatch(/1 region has an id a drawing program made up \(like “path3677”\)/);
    const ticked = await importSvg(mapId, drawing, { mapping: JSON.stringify({ skipRegions: ['US-CA'], includeRegions: ['path3677'] }) });
    expect(ticked.result.counts.locations).toBe(7);
    expect(ticked.result.regions.find((region) => region.id === 'path3677')).toMatchObject({ title: 'path3677', selected: true });
    // A made-up id with a name of its own (here amCharts' title) is a region people named: ticked.
    const named = await importSvg(mapId, AMCHARTS.replace('id="US-DC"', 'id="path3677"'));
    expect(named.result.regions.find((region) => region.id === 'path3677')).toMatchObject({ title: 'Washington, DC', selected: true });
  });

  it('with ?layer=, makes the regions of an existing floor its locations, leaving out those linked already', async () => {
    const mapId = await newMap('Later');
    const first = await importSvg(mapId, AMCHARTS, { filename: 'usaLow.svg', apply: '1', mapping: JSON.stringify({ skipRegions: ['US-CA', 'US-CO'] }) });
    expect(first.status, JSON.stringify(first)).toBe(200);
    const floor = (await documentOf(mapId)).layers.at(-1)!;
    const storedSvg = await (await fetch(`${server.url}${floor.file!.url}`)).text();

    const preview = await importSvg(mapId, storedSvg, { layer: floor.id });
    expect(preview.status, JSON.stringify(preview)).toBe(200);
    expect(preview.result.counts).toMatchObject({ layers: 0, locations: 2 });
    expect(preview.result.regions.filter((region) => region.linked).map((region) => region.id)).toHaveLength(6);
    expect(preview.result.regions.filter((region) => region.selected).map((region) => region.id)).toEqual(['US-CA', 'US-CO']);

    const applied = await importSvg(mapId, storedSvg, { layer: floor.id, apply: '1' });
    expect(applied.status, JSON.stringify(applied)).toBe(200);
    const document = await documentOf(mapId);
    // The new map's empty starter floor gave way to the drawing's floor with the first import.
    expect(document.layers).toHaveLength(first.result.counts.layers);
    expect(document.locations.filter((location) => location.layer === floor.id).map((location) => location.element).sort()).toEqual([...AMCHARTS_IDS].sort());

    const again = await importSvg(mapId, storedSvg, { layer: floor.id, apply: '1' });
    expect(again.status).toBe(400);
    expect(again.error!.message).toMatch(/^The file was read as an SVG drawing, but nothing in it can be imported \(Every region of this drawing has a location already/);
  });

  it('refuses a floor that is not on the map, in words', async () => {
    const mapId = await newMap('Nowhere');
    const answer = await importSvg(mapId, AMCHARTS, { layer: 'attic' });
    expect(answer.status).toBe(400);
    expect(answer.error!.message).toMatch(/attic/);
  });
});
