/**
 * Account routes. `GET /api/auth/me` and `GET /api/config` serve every auth provider; the
 * rest belong to the local provider (with Clerk, its own UI does these things), except
 * deleting the account, which both offer. Bodies are `{data}`, answers `{result}`.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { ErrorBody } from '../../events/function-results.js';
import { resultOf } from '../../events/http-api.js';
import { Principal } from '../../events/principal.js';
import { requirePrincipal } from '../http/access-hooks.js';
import { typed } from '../http/zod-routes.js';
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

/**
 * A route's schema: its `{data}` body (an absent one reads as `{}`, so the answer names the
 * first missing field, as the forms expect) and its `{result}` answer.
 */
function route<D extends z.ZodType, R extends z.ZodType>(data: D, result: R) {
  return { tags: ['accounts'], body: z.object({ data: data.prefault({} as z.input<D>) }).prefault({}), response: { 200: resultOf(result), '4xx': ErrorBody } };
}
const Nothing = z.null();

export async function authRoutes(scope: FastifyInstance, services: Services): Promise<void> {
  const app = typed(scope);
  const signedIn = [scope.access.signedIn];
  const { localAccounts: accounts, rateLimiter, authLimits: limits, config } = services;
  const secure = config.publicUrl.startsWith('https:');
  const setSession = (reply: FastifyReply, token: string) =>
    reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure, maxAge: SESSION_DAYS * 86_400 });
  const clearSession = (reply: FastifyReply) => reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure });

  const ConfigAnswer = resultOf(z.object({ auth: z.enum(['local', 'clerk']), clerkPublishableKey: z.string().nullable() }));
  app.get('/api/config', { schema: { tags: ['accounts'], response: { 200: ConfigAnswer } } }, async () => ({
    result: { auth: services.auth.kind, clerkPublishableKey: config.clerk?.publishableKey ?? null },
  }));

  app.get('/api/auth/me', { schema: { tags: ['accounts'], response: { 200: resultOf(Principal.nullable()) } } }, async (request) => ({ result: request.principal }));

  // With Clerk no password is asked here (Clerk's own UI confirmed the person).
  const DeleteAccountBody = accounts ? DeleteAccountInput : DeleteAccountInput.partial();
  app.post('/api/auth/delete-account', { schema: route(DeleteAccountBody, Nothing), preValidation: signedIn }, async (request, reply) => {
    const principal = requirePrincipal(request);
    if (accounts) await accounts.checkPassword(principal.uid, String(request.body.data.password));
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

  app.post('/api/auth/register', { schema: route(RegisterInput, Principal) }, async (request, reply) => {
    const { data } = request.body;
    await rateLimiter.hit('register', limits.registerPerIp, [request.ip]);
    const { principal, token } = await accounts.register(data, request.ip);
    setSession(reply, token);
    return { result: principal };
  });

  app.post('/api/auth/login', { schema: route(LoginInput, Principal) }, async (request, reply) => {
    const { data } = request.body;
    const { principal, token } = await throttledLogin(loginThrottle, data.email, request.ip, () => accounts.login(data, request.ip));
    setSession(reply, token);
    return { result: principal };
  });

  app.post('/api/auth/logout', { schema: { tags: ['accounts'], response: { 200: resultOf(Nothing) } } }, async (request, reply) => {
    await accounts.logout(request.cookies[SESSION_COOKIE]);
    clearSession(reply);
    return { result: null };
  });

  app.post('/api/auth/resend-verification', { schema: { tags: ['accounts'], response: { 200: resultOf(Nothing), '4xx': ErrorBody } }, preValidation: signedIn }, async (request) => {
    const principal = requirePrincipal(request);
    await rateLimiter.hit('resend-ip', limits.resendPerIp, [request.ip]);
    await rateLimiter.hit('resend-account', limits.resendPerAccount, [principal.uid]);
    await accounts.sendVerification(principal.uid);
    return { result: null };
  });

  app.post('/api/auth/verify-email', { schema: route(VerifyEmailInput, Principal.nullable()) }, async (request) => {
    const uid = await accounts.verifyEmail(request.body.data);
    // Signed in as that account: answer the fresh principal; otherwise nothing to show.
    const principal = request.principal?.uid === uid ? { ...request.principal, emailVerified: true } : null;
    return { result: principal };
  });

  app.post('/api/auth/reset-request', { schema: route(ResetRequestInput, Nothing) }, async (request) => {
    const { data } = request.body;
    await rateLimiter.hit('reset-ip', limits.resetPerIp, [request.ip]);
    await rateLimiter.hit('reset-account', limits.resetPerAccount, [data.email]);
    await accounts.requestReset(data);
    return { result: null };
  });

  app.post('/api/auth/reset-password', { schema: route(ResetPasswordInput, Principal) }, async (request, reply) => {
    const { principal, token } = await accounts.resetPassword(request.body.data, request.ip);
    setSession(reply, token);
    return { result: principal };
  });

  app.post('/api/auth/update-profile', { schema: route(UpdateProfileInput, Principal), preValidation: signedIn }, async (request) => {
    return { result: await accounts.updateProfile(requirePrincipal(request).uid, request.body.data) };
  });

  app.post('/api/auth/change-password', { schema: route(ChangePasswordInput, Nothing), preValidation: signedIn }, async (request) => {
    await accounts.changePassword(requirePrincipal(request).uid, request.body.data, request.cookies[SESSION_COOKIE]);
    return { result: null };
  });

  app.post('/api/auth/sign-out-everywhere', { schema: { tags: ['accounts'], response: { 200: resultOf(Nothing), '4xx': ErrorBody } }, preValidation: signedIn }, async (request, reply) => {
    await accounts.signOutEverywhere(requirePrincipal(request).uid);
    clearSession(reply);
    return { result: null };
  });
}
