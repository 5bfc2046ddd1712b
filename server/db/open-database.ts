import path from 'node:path';
import type { Config } from '../config.js';
import type { Database } from '../../ports/database.js';
import { openPGliteDatabase } from './pglite-database.js';
import { openPostgresDatabase } from './postgres-database.js';

/** PostgreSQL when DATABASE_URL is set, otherwise PGlite in DATA_DIR. */
export function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'>): Promise<Database> {
  return config.databaseUrl
    ? openPostgresDatabase(config.databaseUrl)
    : openPGliteDatabase(path.resolve(config.dataDir, 'pglite'));
}
