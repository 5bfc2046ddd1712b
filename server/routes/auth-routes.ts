/**
 * Account routes. `GET /api/auth/me` and `GET /api/config` serve every auth provider; the
 * rest belong to the local provider (with Clerk, its own UI does these things), except
 * deleting the account, which both offer. Bodies are `{data}`, answers `{result}`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { DomainError } from '../../events/errors.js';
import { listMapsByOwner } from '../../projections/maps-list.js';
import type { Services } from '../services.js';
import { SESSION_COOKIE } from '../auth/auth-provider.js';
import {
  ChangePasswordInput,
  DeleteAccountInput,
  LoginInput,
  RegisterInput,
  ResetPasswordInput,
  ResetRequestInput,
  SESSION_DAYS,
  UpdateProfileInput,
  VerifyEmailInput,
} from '../auth/local-accounts.js';
import { announceSessionsEnded } from '../auth/session-notices.js';
import { deleteMap } from '../commands/map-commands.js';
import { throttledLogin } from '../security/login-throttle.js';

function input<S extends z.ZodType>(schema: S, request: FastifyRequest): z.output<S> {
  const body = request.body as { data?: unknown } | null | undefined;
  return schema.parse(body && typeof body === 'object' ? (body.data ?? {}) : {});
}

function requireUser(request: FastifyRequest) {
  if (!request.principal) throw new DomainError('unauthenticated', 'Unauthenticated');
  return request.principal;
}

export async function authRoutes(app: FastifyInstance, services: Services): Promise<void> {
  const { localAccounts: accounts, rateLimiter, authLimits: limits, config } = services;
  const secure = config.publicUrl.startsWith('https:');
  const setSession = (reply: FastifyReply, token: string) =>
    reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure, maxAge: SESSION_DAYS * 86_400 });
  const clearSession = (reply: FastifyReply) => reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });

  app.get('/api/config', async () => ({
    result: { auth: services.auth.kind, clerkPublishableKey: config.clerk?.publishableKey ?? null },
  }));

  app.get('/api/auth/me', async (request) => ({ result: request.principal }));

  app.post('/api/auth/delete-account', async (request, reply) => {
    const principal = requireUser(request);
    if (accounts) await accounts.checkPassword(principal.uid, input(DeleteAccountInput, request).password);
    // The maps go first, each as a MapDeleted event by its owner: their streams stay for audit.
    for (const map of await listMapsByOwner(services.db, principal.uid)) {
      await deleteMap(services, { id: map.id }, {
        principal,
        now: services.clock.now(),
        correlationId: request.correlationId,
        commandId: services.ids.uuid(),
      }).catch((error: unknown) => {
        if (!(error instanceof DomainError && error.code === 'not-found')) throw error;
      });
    }
    if (accounts) await accounts.deleteAccount(principal.uid);
    else if (services.clerk) {
      await services.clerk.deleteUser(principal.uid);
      // Clerk's tokens stay valid until they expire: the live sockets are closed by name.
      await announceSessionsEnded(services.db, { uid: principal.uid, everySession: true });
    }
    clearSession(reply);
    return { result: null };
  });

  if (!accounts) return;
  const loginThrottle = { limiter: rateLimiter, limits, isKnownClient: (email: string, client: string) => accounts.isKnownClient(email, client) };

  app.post('/api/auth/register', async (request, reply) => {
    const data = input(RegisterInput, request);
    await rateLimiter.hit('register', limits.registerPerIp, [request.ip]);
    const { principal, token } = await accounts.register(data, request.ip);
    setSession(reply, token);
    return { result: principal };
  });

  app.post('/api/auth/login', async (request, reply) => {
    const data = input(LoginInput, request);
    const { principal, token } = await throttledLogin(loginThrottle, data.email, request.ip, () => accounts.login(data, request.ip));
    setSession(reply, token);
    return { result: principal };
  });

  app.post('/api/auth/logout', async (request, reply) => {
    await accounts.logout(request.cookies[SESSION_COOKIE]);
    clearSession(reply);
    return { result: null };
  });

  app.post('/api/auth/resend-verification', async (request) => {
    const principal = requireUser(request);
    await rateLimiter.hit('resend-ip', limits.resendPerIp, [request.ip]);
    await rateLimiter.hit('resend-account', limits.resendPerAccount, [principal.uid]);
    await accounts.sendVerification(principal.uid);
    return { result: null };
  });

  app.post('/api/auth/verify-email', async (request) => {
    const uid = await accounts.verifyEmail(input(VerifyEmailInput, request));
    // Signed in as that account: answer the fresh principal; otherwise nothing to show.
    const principal = request.principal?.uid === uid ? { ...request.principal, emailVerified: true } : null;
    return { result: principal };
  });

  app.post('/api/auth/reset-request', async (request) => {
    const data = input(ResetRequestInput, request);
    await rateLimiter.hit('reset-ip', limits.resetPerIp, [request.ip]);
    await rateLimiter.hit('reset-account', limits.resetPerAccount, [data.email]);
    await accounts.requestReset(data);
    return { result: null };
  });

  app.post('/api/auth/reset-password', async (request, reply) => {
    const { principal, token } = await accounts.resetPassword(input(ResetPasswordInput, request), request.ip);
    setSession(reply, token);
    return { result: principal };
  });

  app.post('/api/auth/update-profile', async (request) => {
    return { result: await accounts.updateProfile(requireUser(request).uid, input(UpdateProfileInput, request)) };
  });

  app.post('/api/auth/change-password', async (request) => {
    await accounts.changePassword(requireUser(request).uid, input(ChangePasswordInput, request), request.cookies[SESSION_COOKIE]);
    return { result: null };
  });

  app.post('/api/auth/sign-out-everywhere', async (request, reply) => {
    await accounts.signOutEverywhere(requireUser(request).uid);
    clearSession(reply);
    return { result: null };
  });
}
