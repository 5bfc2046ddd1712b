/**
 * Set up for every test file of the node project (vitest.config.ts): after the file's tests,
 * wait for the PostgreSQL databases they dropped to be gone (databases.ts drops them in the
 * background), so none outlives its file and a failed drop fails the file.
 */
import { afterAll } from 'vitest';
import { droppedDatabases } from './databases.js';

afterAll(() => droppedDatabases(), 60_000);
