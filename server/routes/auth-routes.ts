/** The local provider's account routes: register, log in, log out, and who am I. */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { SESSION_COOKIE } from '../auth/auth-provider.js';
import { LocalAccounts, LoginInput, RegisterInput, SESSION_DAYS } from '../auth/local-accounts.js';

export async function authRoutes(app: FastifyInstance, accounts: LocalAccounts, secureCookies: boolean): Promise<void> {
  const setSession = (reply: FastifyReply, token: string) =>
    reply.setCookie(SESSION_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: secureCookies,
      maxAge: SESSION_DAYS * 86_400,
    });

  app.get('/api/auth/me', async (request) => ({ result: request.principal }));

  app.post('/api/auth/register', async (request, reply) => {
    const input = RegisterInput.parse((request.body as { data?: unknown } | null)?.data);
    const { principal, token } = await accounts.register(input);
    setSession(reply, token);
    return { result: principal };
  });

  app.post('/api/auth/login', async (request, reply) => {
    const input = LoginInput.parse((request.body as { data?: unknown } | null)?.data);
    const { principal, token } = await accounts.login(input);
    setSession(reply, token);
    return { result: principal };
  });

  app.post('/api/auth/logout', async (request, reply) => {
    await accounts.logout(request.cookies[SESSION_COOKIE]);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { result: null };
  });
}
