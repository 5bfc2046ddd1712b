/**
 * Uploads and the files themselves.
 *
 * - `POST /api/files`: the request body is the file's bytes (any Content-Type but multipart;
 *   `application/octet-stream` is usual). Signed-in users with a verified address only,
 *   checked before the body is read. The type comes from the content (inspect-upload.ts),
 *   SVGs are sanitised, and the file is stored through the file-storage port. Answers
 *   `{result: {id, url, kind, contentType, width, height, size}}`.
 * - `POST /api/files/from-url` with `{data: {url}}`: a drawing on another site, fetched once by
 *   the server (fetch-remote-file.ts: public addresses only, checked on every hop, within the
 *   same size limit and a deadline), then inspected, sanitised and stored exactly as an upload,
 *   under the same rules (signed in, verified, the same hourly budget). Answers as an upload.
 *   Floors take only the product's own files: this is how a drawing elsewhere becomes one.
 * - `GET /api/files/limits`: `{result: {maxBytes, types}}`, so a page can say what it takes
 *   and check a file's size before sending it.
 * - `GET /files/:id`: a stored file, for anyone who has its address (ids are 128 random bits),
 *   as published maps are. Immutable, so cached for a year; `nosniff` and a Content-Security-
 *   Policy that allows no scripts, so an SVG opened on its own cannot run anything either.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DomainError } from '../../events/errors.js';
import { z } from 'zod';
import { FileFromUrl, StoredFileAnswer } from '../../events/files-api.js';
import { ErrorBody } from '../../events/function-results.js';
import { resultOf } from '../../events/http-api.js';
import { typed } from '../http/zod-routes.js';
import type { Principal } from '../../events/principal.js';
import { isFileId, type FileStore, type StoredFile } from '../files/file-store.js';
import { fetchRemoteFile, type RemoteFetchOptions } from '../files/fetch-remote-file.js';
import { inspectUpload, tooLargeMessage, UNSUPPORTED_TYPE } from '../files/inspect-upload.js';
import { WorkerSvgSanitizer, type SvgSanitizer } from '../files/svg-sanitizer-pool.js';
import type { RateLimiter } from '../security/rate-limiter.js';

export interface FileRouteOptions {
  files: FileStore;
  /** Largest upload in bytes (UPLOAD_LIMIT). */
  uploadLimit: number;
  rateLimiter?: RateLimiter;
  /** Where SVGs are sanitised; a worker thread of this app's own by default. */
  svgSanitizer?: SvgSanitizer;
  /** How `POST /api/files/from-url` fetches: public addresses only unless a test allows its own server. */
  remote?: Omit<RemoteFetchOptions, 'maxBytes'>;
}

/** What an upload answers. */
export type UploadResult = z.infer<typeof StoredFileAnswer>;

/** Uploads per user per hour: plenty for people, a ceiling for a runaway script. */
export const UPLOAD_RATE = { max: 200, windowMs: 60 * 60 * 1000 };

export const SVG_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";
export const IMAGE_CONTENT_SECURITY_POLICY = "default-src 'none'; sandbox";
const FILE_NOT_FOUND = 'File not found.';
/** What uploads may be, by content. */
export const ACCEPTED_TYPES = ['image/svg+xml', 'image/png', 'image/jpeg', 'image/webp'] as const;

/** The signed-in, verified user a file route acts for (spec §5), or the catalogue's refusal. */
export function verifiedUser(request: FastifyRequest): Principal {
  if (!request.principal) throw new DomainError('unauthenticated', 'Unauthenticated');
  if (!request.principal.emailVerified) throw new DomainError('permission-denied', 'Verify your email address first.');
  return request.principal;
}

/** The stored file as an upload answers it, with what sanitising removed (an SVG's). */
export function uploadResult(file: StoredFile, removed: UploadResult['removed'] = []): UploadResult {
  const { id, url, kind, contentType, width, height, size } = file;
  return { id, url, kind, contentType, width, height, size, removed };
}

export async function fileRoutes(app: FastifyInstance, { files, uploadLimit, rateLimiter, svgSanitizer, remote }: FileRouteOptions): Promise<void> {
  const sanitizer = svgSanitizer ?? new WorkerSvgSanitizer();
  if (!svgSanitizer) app.addHook('onClose', () => sanitizer.close());

  await app.register(async (upload) => {
    // Every body of this route is a file, read as bytes up to the upload limit.
    upload.removeAllContentTypeParsers();
    upload.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: uploadLimit }, (_request, body, done) => done(null, body));
    // Refuse strangers before reading (perhaps) megabytes.
    upload.addHook('preParsing', async (request) => {
      const user = verifiedUser(request);
      if (rateLimiter) await rateLimiter.hit('upload', UPLOAD_RATE, [user.uid]);
    });
    upload.setErrorHandler((error, _request, reply) => {
      // Thrown on: the app's handler answers in the catalogue's shape.
      if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        reply.header('connection', 'close');
        throw new DomainError('invalid-argument', tooLargeMessage(uploadLimit));
      }
      throw error;
    });

    const uploadSchema = {
      tags: ['files'],
      description: "The file's bytes as the body (SVG, PNG, JPEG or WebP); SVGs are sanitised before they are stored.",
      response: { 200: resultOf(StoredFileAnswer), '4xx': ErrorBody },
    };
    typed(upload).post('/api/files', { bodyLimit: uploadLimit, schema: uploadSchema }, async (request) => {
      const user = verifiedUser(request);
      const contentType = request.headers['content-type']?.toLowerCase() ?? '';
      if (contentType.startsWith('multipart/')) {
        throw new DomainError('invalid-argument', "Send the file's bytes as the request body (Content-Type: application/octet-stream), not as a form.");
      }
      const inspected = await inspectUpload(request.body as Buffer | undefined, uploadLimit, sanitizer);
      const stored = await files.put(inspected.bytes, { ...inspected.meta, owner: user.uid });
      request.log.info({ fileId: stored.id, kind: stored.kind, size: stored.size }, 'file stored');
      return { result: uploadResult(stored, inspected.removed) };
    });
  });

  await app.register(async (fromUrl) => {
    // The same people and the same budget as uploads, checked before anything is fetched.
    fromUrl.addHook('preParsing', async (request) => {
      const user = verifiedUser(request);
      if (rateLimiter) await rateLimiter.hit('upload', UPLOAD_RATE, [user.uid]);
    });

    const fromUrlSchema = { tags: ['files'], body: z.object({ data: FileFromUrl }), response: { 200: resultOf(StoredFileAnswer), '4xx': ErrorBody } };
    typed(fromUrl).post('/api/files/from-url', { schema: fromUrlSchema }, async (request) => {
      const user = verifiedUser(request);
      const { url } = request.body.data;
      const bytes = await fetchRemoteFile(url, { ...remote, maxBytes: uploadLimit });
      let inspected;
      try {
        inspected = await inspectUpload(bytes, uploadLimit, sanitizer);
      } catch (error) {
        if (error instanceof DomainError && error.message === UNSUPPORTED_TYPE) {
          throw new DomainError('invalid-argument', 'The file at that address is not an SVG, PNG, JPEG or WebP image.');
        }
        throw error;
      }
      const stored = await files.put(inspected.bytes, { ...inspected.meta, owner: user.uid });
      request.log.info({ fileId: stored.id, kind: stored.kind, size: stored.size, from: new URL(url).origin }, 'file fetched and stored');
      return { result: uploadResult(stored, inspected.removed) };
    });
  });

  const limitsSchema = { tags: ['files'], response: { 200: resultOf(z.object({ maxBytes: z.number().int(), types: z.array(z.enum(ACCEPTED_TYPES)) })) } };
  typed(app).get('/api/files/limits', { schema: limitsSchema }, async () => ({ result: { maxBytes: uploadLimit, types: [...ACCEPTED_TYPES] } }));

  // A stored file's bytes, with the headers that keep a hostile SVG inert.
  typed(app).get('/files/:id', { schema: { tags: ['files'], params: z.object({ id: z.string() }) } }, async (request, reply) => {
    const { id } = request.params;
    const opened = isFileId(id) ? await files.open(id) : null;
    if (!opened) throw new DomainError('not-found', FILE_NOT_FOUND);
    const { file, body } = opened;
    const etag = `"${file.id}"`;
    reply
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', file.kind === 'svg' ? SVG_CONTENT_SECURITY_POLICY : IMAGE_CONTENT_SECURITY_POLICY)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('etag', etag);
    if (request.headers['if-none-match'] === etag) {
      body.destroy();
      return reply.code(304).send();
    }
    return reply
      .type(file.kind === 'svg' ? 'image/svg+xml; charset=utf-8' : file.contentType)
      .header('content-length', file.size)
      .send(body);
  });
}
