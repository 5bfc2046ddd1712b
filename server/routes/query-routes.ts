/**
 * Plain GETs on the read models. The live socket pushes the same data; these serve first
 * loads, scripts and tests. Each answer says which position it reflects.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { exportLocationsCsv } from '../../events/locations-csv.js';
import { exportGeoJson } from '../../events/locations-geojson.js';
import { exportImdf } from '../../events/imdf-export.js';
import { MapDocument } from '../../events/map-document.js';
import { DomainError } from '../../events/errors.js';
import { formatPosition } from '../../events/position.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import { getMapData } from '../../projections/map-data.js';
import { listMapsByOwner } from '../../projections/maps-list.js';
import { MapIdParams, FileText, resultAt } from '../../events/http-api.js';
import { ErrorBody } from '../../events/function-results.js';
import { MapDataRecord, MapListItem } from '../../events/read-models.js';
import type { Database } from '../../ports/database.js';
import { requirePrincipal } from '../http/access-hooks.js';
import { typed } from '../http/zod-routes.js';
import { mapAccessHook } from '../access/map-access-hook.js';
import { imdfZip, readOutlines, type ReadFloor } from '../export/imdf-archive.js';

/**
 * `readFloor` gives a floor drawing's SVG by its url (server/public-maps/floor-reader.ts), for
 * the IMDF export's outlines; without it, no floor has outlines and shops export as points.
 */
export async function queryRoutes(scope: FastifyInstance, db: Database, readFloor: ReadFloor = async () => null, now: () => Date = () => new Date()): Promise<void> {
  const app = typed(scope);
  const signedIn = [scope.access.signedIn];
  const mapSchema = (response: z.ZodType) => ({ tags: ['maps'], params: MapIdParams, response: { 200: response, '4xx': ErrorBody } });
  const positionOf = async (projection: string) => {
    const checkpoint = await readCheckpoint(db, projection);
    return checkpoint ? formatPosition(checkpoint.position) : '-1:-1';
  };

  app.get('/api/maps', { schema: { tags: ['maps'], response: { 200: resultAt(z.array(MapListItem)), '4xx': ErrorBody } }, preValidation: signedIn }, async (request) => {
    const position = await positionOf('maps_list');
    return { result: await listMapsByOwner(db, requirePrincipal(request).uid), position };
  });

  /** The map data of a map the caller may view (the route's access hook let them through). */
  const viewableMapData = async (id: string) => {
    const row = await getMapData(db, id);
    if (!row) throw new DomainError('not-found', 'Map not found.');
    return row;
  };
  // Owner, members and admins (events/map-access.ts 'view'), checked before the handler.
  const viewable = { preValidation: signedIn, preHandler: [mapAccessHook(db, 'view')] };

  app.get('/api/maps/:id/data', { schema: mapSchema(resultAt(MapDataRecord)), ...viewable }, async (request) => {
    const position = await positionOf('map_data');
    const row = await viewableMapData(request.params.id);
    return { result: { id: row.id, title: row.title, data: row.data, revision: row.revision, history: row.history }, position };
  });

  // Exports download as files: the whole document as JSON, the locations as CSV and, those on
  // calibrated floors, as GeoJSON.
  const fileName = (title: string) => title.replace(/[^\p{L}\p{N} _-]+/gu, '').trim().replace(/\s+/g, '-').slice(0, 80) || 'map';
  /** RFC 6266: an ASCII name for old clients, the UTF-8 name (RFC 5987) for the rest. */
  const attachment = (name: string) =>
    `attachment; filename="${name.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '')}"; filename*=UTF-8''${encodeURIComponent(name)}`;

  app.get('/api/maps/:id/export.json', { schema: mapSchema(FileText), ...viewable }, async (request, reply) => {
    const row = await viewableMapData(request.params.id);
    const document = MapDocument.parse(row.data);
    reply
      .header('content-disposition', attachment(`${fileName(row.title)}.json`))
      .type('application/json; charset=utf-8');
    return JSON.stringify({ title: row.title, document }, null, 2);
  });

  app.get('/api/maps/:id/locations.csv', { schema: mapSchema(FileText), ...viewable }, async (request, reply) => {
    const row = await viewableMapData(request.params.id);
    reply
      .header('content-disposition', attachment(`${fileName(row.title)}-locations.csv`))
      .type('text/csv; charset=utf-8');
    // A byte-order mark, so spreadsheet programs read the accents right.
    return `\uFEFF${exportLocationsCsv(MapDocument.parse(row.data))}`;
  });

  app.get('/api/maps/:id/export.geojson', { schema: mapSchema(FileText), ...viewable }, async (request, reply) => {
    const row = await viewableMapData(request.params.id);
    reply
      .header('content-disposition', attachment(`${fileName(row.title)}.geojson`))
      .type('application/geo+json; charset=utf-8');
    return JSON.stringify(exportGeoJson(MapDocument.parse(row.data)));
  });

  // IMDF (Apple's indoor map format, OGC 20-094) as a zip of its GeoJSON files: calibrated
  // floors, the venue's address, a unit per shop outline (events/imdf-export.ts). A map that
  // lacks a must is refused with what it lacks (invalid-argument).
  app.get(
    '/api/maps/:id/export.imdf.zip',
    // No response schema: the answer is the zip's bytes (errors still answer the catalogue's body).
    { schema: { tags: ['maps'], params: MapIdParams }, ...viewable },
    async (request, reply) => {
      const row = await viewableMapData(request.params.id);
      const document = MapDocument.parse(row.data);
      const outlines = await readOutlines(document, readFloor);
      const archive = exportImdf(document, { mapId: row.id, title: row.title, created: now().toISOString(), outlines });
      if (!archive.ok) throw new DomainError('invalid-argument', archive.message);
      reply.header('content-disposition', attachment(`${fileName(row.title)}-imdf.zip`)).type('application/zip');
      return reply.send(Buffer.from(imdfZip(archive.files, now())));
    },
  );
}
