/**
 * Who may read the operations details (`/metrics`, and `/api/ready` beyond its status): they
 * name projections, errors and traffic, which are nobody else's business.
 *
 * - METRICS_TOKEN set: whoever sends `Authorization: Bearer <token>` (compared in constant
 *   time), from anywhere, and no one else (this machine included).
 * - Unset: only this machine, judged by the socket's own peer address (a forwarded-for header
 *   could be forged from anywhere), and nobody when TRUST_PROXY is set: behind a reverse proxy
 *   on the same host every request arrives from loopback.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { sendError, type ErrorAnswer } from '../errors.js';

export type OpsAccess = { granted: true } | { granted: false; answer: ErrorAnswer };

export function isLoopback(address: string | undefined): boolean {
  return address === '::1' || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address ?? '');
}

/** Equal strings, in time that does not depend on where they differ (digests have one length). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

export function opsAccessRule(config: Pick<Config, 'metricsToken' | 'trustProxy'>): (request: FastifyRequest) => OpsAccess {
  const { metricsToken, trustProxy } = config;
  return (request) => {
    if (metricsToken) {
      const header = request.headers.authorization;
      const token = typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
      if (token === undefined) return { granted: false, answer: { code: 'unauthenticated', message: 'Send Authorization: Bearer <METRICS_TOKEN>.' } };
      if (!sameSecret(token, metricsToken)) return { granted: false, answer: { code: 'unauthenticated', message: 'Wrong metrics token.' } };
      return { granted: true };
    }
    if (trustProxy) {
      return { granted: false, answer: { code: 'permission-denied', message: 'Behind a proxy (TRUST_PROXY), operations details need METRICS_TOKEN.' } };
    }
    if (!isLoopback(request.socket.remoteAddress)) {
      return { granted: false, answer: { code: 'permission-denied', message: 'Operations details are served only to this machine; set METRICS_TOKEN to read them from elsewhere.' } };
    }
    return { granted: true };
  };
}

/** A route hook that refuses callers the rule does not let in. */
export function requireOpsAccess(rule: (request: FastifyRequest) => OpsAccess) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const access = rule(request);
    if (access.granted) return;
    if (access.answer.code === 'unauthenticated') reply.header('www-authenticate', 'Bearer realm="mapfold-metrics"');
    return sendError(reply, access.answer);
  };
}
