/**
 * Plain GETs on the read models. The live socket pushes the same data; these serve first
 * loads, scripts and tests. Each answer says which position it reflects.
 */
import type { FastifyInstance } from 'fastify';
import { DomainError } from '../../events/errors.js';
import { formatPosition } from '../../events/position.js';
import { readCheckpoint } from '../../projections/checkpoints.js';
import { getMapData } from '../../projections/map-data.js';
import { listMapsByOwner } from '../../projections/maps-list.js';
import type { Database } from '../db/database.js';

export async function queryRoutes(app: FastifyInstance, db: Database): Promise<void> {
  const positionOf = async (projection: string) => {
    const checkpoint = await readCheckpoint(db, projection);
    return checkpoint ? formatPosition(checkpoint.position) : '-1:-1';
  };

  app.get('/api/maps', async (request) => {
    if (!request.principal) throw new DomainError('unauthenticated', 'Unauthenticated');
    const position = await positionOf('maps_list');
    return { result: await listMapsByOwner(db, request.principal.uid), position };
  });

  app.get<{ Params: { id: string } }>('/api/maps/:id/data', async (request) => {
    const principal = request.principal;
    if (!principal) throw new DomainError('unauthenticated', 'Unauthenticated');
    const position = await positionOf('map_data');
    const row = await getMapData(db, request.params.id);
    if (!row) throw new DomainError('not-found', 'Map not found.');
    if (row.uid !== principal.uid && !principal.admin) {
      throw new DomainError('permission-denied', 'You do not have access to this map.');
    }
    return { result: { id: row.id, title: row.title, data: row.data, revision: row.revision }, position };
  });
}
