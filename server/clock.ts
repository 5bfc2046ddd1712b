import { randomBytes, randomUUID } from 'node:crypto';

/** Time and ids come from here, so tests can fix them and deciders stay pure. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

export interface IdGenerator {
  /** A short, URL-safe id for maps (72 random bits). */
  mapId(): string;
  /** A UUID for events, commands and correlation. */
  uuid(): string;
}
export const randomIds: IdGenerator = {
  mapId: () => randomBytes(9).toString('base64url'),
  uuid: () => randomUUID(),
};
