/**
 * One place that turns any error into the spec's error answer: an HTTP status from the error
 * catalogue and a body `{error: {status, message}}`. Unexpected errors are logged and answered
 * as `internal` without their details.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ZodError } from 'zod';
import { DomainError, ERROR_STATUS, type ErrorCode } from '../events/errors.js';
import { issueText, type IssueLike } from '../events/issue-message.js';

export interface ErrorAnswer {
  code: Exclude<ErrorCode, 'unknown'>;
  message: string;
}

/** The canonical status name sent in the body, as Firebase callables do ("INVALID_ARGUMENT"). */
export function statusName(code: ErrorAnswer['code']): string {
  return code.toUpperCase().replace(/-/g, '_');
}

/** The first issue in the user's words (events/issue-message.ts): "Maximum zoom can be at most 64.", never zod's "Too big: …". */
export function zodMessage(error: ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'Invalid request.';
  return issueText(issue as IssueLike);
}

/** Maps Fastify's own request errors (bad JSON, too large, wrong media type) to the catalogue. */
function fastifyAnswer(error: FastifyError, bodyLimit: number): ErrorAnswer | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      // Also a body with a `__proto__` or `constructor.prototype` key: Fastify's JSON parser
      // (onProtoPoisoning: 'error') refuses it with this same code, its reason not kept.
      return { code: 'invalid-argument', message: 'Request body is not valid JSON.' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'invalid-argument', message: `Request body is too large (the limit is ${Math.round(bodyLimit / 1024)} KB).` };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { code: 'invalid-argument', message: 'Request body must be JSON (Content-Type: application/json).' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      // An id longer than any real one: the same answer as an id that does not exist.
      return { code: 'not-found', message: 'Not found.' };
    default:
      // Any other request error Fastify raises is the caller's: a 4xx, never a 500.
      if (error.validation || (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500)) {
        return { code: 'invalid-argument', message: error.message };
      }
      return null;
  }
}

/** The body of a callable request or JSON route is `{data}`; a missing or non-object body says so. */
export const BODY_SHAPE_MESSAGE = 'Request body must be a JSON object with a data field.';

/**
 * A route schema's refusal (server/http/zod-routes.ts) as invalid-argument naming the field.
 * Bodies are `{data: …}`: the field is named inside `data`, as the functions always did.
 */
function validationAnswer(error: FastifyError & { validationContext?: string }): ErrorAnswer {
  const issue = error.validation![0]!;
  const path = issue.instancePath.split('/').filter(Boolean);
  if (error.validationContext === 'body') {
    const missing = issue.keyword === 'invalid_type' && / received undefined$/.test(issue.message ?? '');
    if (path.length === 0 || (path.length === 1 && path[0] === 'data' && missing)) return { code: 'invalid-argument', message: BODY_SHAPE_MESSAGE };
    if (path[0] === 'data') path.shift();
  }
  // An unknown field is named like any other: "owner: unknown query parameter".
  const unknown = issue.keyword === 'unrecognized_keys' ? ((issue.params as { keys?: string[] }).keys ?? []) : [];
  const fields = unknown.length > 0 ? [...path, unknown.join(', ')] : path;
  if (unknown.length > 0 && /^Unrecognized key/.test(issue.message ?? '')) return { code: 'invalid-argument', message: `${fields.join('.')}: unknown field` };
  // The issue as zod gave it (fastify-type-provider-zod keeps its fields in params), in the user's words.
  const zodIssue = { ...(issue.params as object), code: issue.keyword, path: fields, message: issue.message ?? 'is not valid' } as IssueLike;
  return { code: 'invalid-argument', message: issueText(zodIssue) };
}

/**
 * A library's own refusal of the request (http-errors' shape: `expose` with a 4xx `statusCode`),
 * such as @fastify/static's 403 for a path that climbs out of its folder (`/files/..`, found by
 * the fuzz suite as a 500): the catalogue's code for that status, never a 500.
 */
function httpErrorAnswer(error: { statusCode?: unknown; expose?: unknown; message?: unknown }): ErrorAnswer | null {
  const status = error.statusCode;
  if (error.expose !== true || typeof status !== 'number' || status < 400 || status >= 500) return null;
  const code = (Object.keys(ERROR_STATUS) as Array<ErrorAnswer['code']>).find((candidate) => ERROR_STATUS[candidate] === status) ?? 'invalid-argument';
  const message = typeof error.message === 'string' && error.message !== '' ? error.message : 'Invalid request';
  return { code, message: message.endsWith('.') ? message : `${message}.` };
}

export function toErrorAnswer(error: unknown, bodyLimit: number): ErrorAnswer | null {
  if (error instanceof DomainError) return { code: error.code, message: error.message };
  if (hasZodFastifySchemaValidationErrors(error)) return validationAnswer(error as FastifyError);
  if (error instanceof ZodError) return { code: 'invalid-argument', message: zodMessage(error) };
  if (typeof error === 'object' && error !== null && 'code' in error) return fastifyAnswer(error as FastifyError, bodyLimit);
  if (typeof error === 'object' && error !== null) return httpErrorAnswer(error);
  return null;
}

export function sendError(reply: FastifyReply, answer: ErrorAnswer) {
  return reply.status(ERROR_STATUS[answer.code]).send({ error: { status: statusName(answer.code), message: answer.message } });
}

export function errorHandler(bodyLimit: number) {
  return (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const answer = toErrorAnswer(error, bodyLimit);
    // An internal error of our own (an event its readers would refuse) says why to the log only.
    if (answer?.code === 'internal' && error instanceof DomainError) {
      const reason = error.logDetails?.reason;
      request.log.error({ err: error, ...error.logDetails }, typeof reason === 'string' ? reason : error.message);
    }
    if (answer) return sendError(reply, answer);
    request.log.error({ err: error }, 'unexpected error');
    return sendError(reply, { code: 'internal', message: 'Internal error.' });
  };
}
