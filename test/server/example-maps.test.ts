/** The case studies' example maps: seeded once, public, valid documents whose regions and files exist. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MapDocument } from '../../events/map-document.js';
import { LocalFileStore } from '../../server/files/local-file-store.js';
import { sanitizeSvg } from '../../server/files/sanitize-svg.js';
import { inlineSvgSanitizer, type SvgSanitizer } from '../../server/files/svg-sanitizer-pool.js';
import { OFFICES, TERRITORIES } from '../../server/seed/example-geographic.js';
import { EXAMPLE_MAP_IDS, seedExampleMaps } from '../../server/seed/example-maps.js';
import { UNITS, UNIT_STATUSES } from '../../server/seed/example-real-estate.js';
import { DEMO_MAP_ID, seedDemoMap, SYSTEM_UID } from '../../server/seed/seed-demo-map.js';
import { databaseTargets } from '../support/databases.js';
import { startTestServer, type TestServer } from '../support/test-server.js';

interface PublicMapBody {
  result: { id: string; title: string; state: number; data: unknown; test: boolean };
}

describe.each(databaseTargets)('example maps ($name)', (target) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(target);
  });
  afterAll(() => server.close());

  const readPublic = async (id: string) => {
    const response = await fetch(`${server.url}/api/public/maps/${id}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as PublicMapBody).result;
  };

  it('given a fresh store, when seeded twice, then the second time records nothing', async () => {
    const first = await seedExampleMaps(server.services);
    expect(first).toHaveLength(2);
    expect(await seedExampleMaps(server.services)).toEqual([]);
    const demo = await seedDemoMap(server.services.store, server.services.clock, server.services.ids);
    await server.runner.waitFor(demo ?? first[first.length - 1]!);
    await server.runner.waitFor(first[first.length - 1]!);
    for (const id of [EXAMPLE_MAP_IDS['real-estate'], EXAMPLE_MAP_IDS.geographic]) {
      expect(await server.services.store.readStream(`map-${id}`)).toHaveLength(1);
      const { rows } = await server.database.db.query<{ state: number; uid: string }>('SELECT state, uid FROM maps_list WHERE id = $1', [id]);
      expect(rows[0]).toEqual({ state: 2, uid: SYSTEM_UID });
    }
  });

  it('given the maps recorded and their drawings stored, when seeded again, then no drawing is sanitised again', async () => {
    await seedExampleMaps(server.services);
    let sanitised = 0;
    const counting: SvgSanitizer = { sanitize: async (text) => (sanitised++, sanitizeSvg(text)), close: async () => undefined };
    expect(await seedExampleMaps({ ...server.services, svgSanitizer: counting })).toEqual([]);
    expect(sanitised).toBe(0);
  });

  it('given the maps recorded by another process with a file store of its own, when seeded here, then the drawings are stored here too and nothing is recorded', async () => {
    await seedExampleMaps(server.services);
    const dir = mkdtempSync(path.join(tmpdir(), 'mapfold-files-'));
    try {
      const files = new LocalFileStore(dir, () => new Date());
      expect(await seedExampleMaps({ ...server.services, files, svgSanitizer: inlineSvgSanitizer(sanitizeSvg) })).toEqual([]);
      for (const id of [EXAMPLE_MAP_IDS['real-estate'], EXAMPLE_MAP_IDS.geographic]) {
        const [created] = await server.services.store.readStream(`map-${id}`);
        const url = MapDocument.parse((created!.data as { document: unknown }).document).layers[0]!.file!.url;
        expect(await files.stat(url.replace('/files/', ''))).toMatchObject({ kind: 'svg', owner: null });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the real-estate site plan is public: every plot a region of its SVG, with status and price', async () => {
    const map = await readPublic(EXAMPLE_MAP_IDS['real-estate']);
    expect(map).toMatchObject({ id: 'example-real-estate', state: 2, test: false });
    const document = MapDocument.parse(map.data);
    expect(document.groups.map((g) => g.name)).toEqual(UNIT_STATUSES.map((s) => s.name));
    const svg = await (await fetch(`${server.url}${document.layers[0]!.file!.url}`)).text();
    for (const unit of UNITS) {
      expect(svg).toContain(`id="${unit.id}"`);
      const location = document.locations.find((l) => l.element === unit.id)!;
      expect(location.groups).toEqual([unit.status]);
      expect(location.description).toMatch(unit.status === 'sold' ? /Sold/ : /\$\d{3},\d{3}/);
    }
  });

  it('the geographic map is public: states coloured by territory, an office pin in every territory', async () => {
    const map = await readPublic(EXAMPLE_MAP_IDS.geographic);
    expect(map.state).toBe(2);
    const document = MapDocument.parse(map.data);
    expect(document.groups.map((g) => g.id)).toEqual(TERRITORIES.map((t) => t.id));
    const { width, height } = document.settings.size;
    const offices = document.locations.filter((l) => l.id.startsWith('office-'));
    expect(offices).toHaveLength(OFFICES.length);
    for (const office of offices) {
      // Inside the frame: the projection matches the built-in map's.
      expect(office.position!.x).toBeGreaterThan(0);
      expect(office.position!.x).toBeLessThan(width);
      expect(office.position!.y).toBeGreaterThan(0);
      expect(office.position!.y).toBeLessThan(height);
    }
    const california = document.locations.find((l) => l.id === 'state-06')!;
    expect(california.groups).toEqual(['pacific']);
    const response = await fetch(`${server.url}${document.layers[0]!.file!.url}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('id="state-06"');
  });

  it('the retail case study shows the demo mall, also public', async () => {
    expect(EXAMPLE_MAP_IDS.retail).toBe(DEMO_MAP_ID);
    expect((await readPublic(DEMO_MAP_ID)).state).toBe(2);
  });
});
