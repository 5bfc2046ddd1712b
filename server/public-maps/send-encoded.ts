/**
 * Sends a body kept in several encodings: the one the client takes, or 304 when it already
 * holds this version. No work per request beyond reading two headers.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { encodeOnce, type EncodedBody } from './encoded-body.js';
import { chooseEncoding, ifNoneMatchMatches } from './http-negotiation.js';

export interface SendOptions {
  contentType: string;
  cacheControl: string;
  status?: number;
  /** The answer also depends on the visitor's languages (a page in their language): `Vary: Accept-Language`. */
  byLanguage?: boolean;
}

export function sendEncoded(request: FastifyRequest, reply: FastifyReply, body: EncodedBody, { contentType, cacheControl, status = 200, byLanguage = false }: SendOptions): FastifyReply {
  // Shared caches must keep one copy per coding (and language), and a 304 carries the same validators.
  reply.header('vary', byLanguage ? 'Accept-Encoding, Accept-Language' : 'Accept-Encoding').header('cache-control', cacheControl);
  // Only a 200 is a version of the resource (a 404's body is the same for every unknown id).
  if (status === 200) {
    reply.header('etag', body.etag);
    if (ifNoneMatchMatches(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
  }
  const coding = chooseEncoding(request.headers['accept-encoding']) ?? 'identity';
  return sendBytes(reply, body[coding], coding, contentType, status);
}

/** A body compressed for this request only, in the coding it asks for (answers never kept, such as a test map's). */
export async function sendCompressedOnce(request: FastifyRequest, reply: FastifyReply, identity: Buffer, { contentType, cacheControl, status = 200 }: SendOptions): Promise<FastifyReply> {
  reply.header('vary', 'Accept-Encoding').header('cache-control', cacheControl);
  // Below a kilobyte compression saves less than its headers and work cost.
  const coding = identity.length < 1024 ? 'identity' : (chooseEncoding(request.headers['accept-encoding']) ?? 'identity');
  return sendBytes(reply, await encodeOnce(identity, coding), coding, contentType, status);
}

function sendBytes(reply: FastifyReply, bytes: Buffer, coding: string, contentType: string, status: number): FastifyReply {
  if (coding !== 'identity') reply.header('content-encoding', coding);
  return reply.code(status).type(contentType).header('content-length', bytes.length).send(bytes);
}
