/**
 * The account routes of the server (`/api/auth/*`, `/api/config`): every call the auth pages
 * make, through the one API module (so errors follow the catalogue and carry the server's
 * message).
 */
import { z } from 'zod';
import { Principal } from '../../../../../events/principal';
import { api as defaultApi, type ApiClient } from '../../../lib/api';

export const MaybePrincipal = Principal.nullable();
const Nothing = z.null().or(z.undefined()).transform(() => null);

export const AuthConfig = z.object({
  auth: z.enum(['local', 'clerk']),
  clerkPublishableKey: z.string().nullable(),
});
export type AuthConfig = z.infer<typeof AuthConfig>;

export const LOCAL_AUTH_CONFIG: AuthConfig = { auth: 'local', clerkPublishableKey: null };

/** How this server keeps accounts; the local mode when the server cannot say. */
export async function fetchAuthConfig(api: ApiClient = defaultApi): Promise<AuthConfig> {
  try {
    const { result } = await api.get('/api/config', AuthConfig);
    return result.auth === 'clerk' && !result.clerkPublishableKey ? LOCAL_AUTH_CONFIG : result;
  } catch {
    return LOCAL_AUTH_CONFIG;
  }
}

export function authApi(api: ApiClient = defaultApi) {
  return {
    me: async () => (await api.get('/api/auth/me', MaybePrincipal)).result,
    login: async (email: string, password: string) => (await api.post('/api/auth/login', { email, password }, Principal)).result,
    register: async (details: { email: string; password: string; displayName: string }) =>
      (await api.post('/api/auth/register', details, Principal)).result,
    logout: async () => {
      await api.post('/api/auth/logout', {}, Nothing);
    },
    resendVerification: async () => {
      await api.post('/api/auth/resend-verification', {}, Nothing);
    },
    /** Null when the link was opened without being signed in (the address is verified either way). */
    verifyEmail: async (token: string) => (await api.post('/api/auth/verify-email', { token }, MaybePrincipal)).result,
    /** The same answer whether or not the address has an account. */
    requestPasswordReset: async (email: string) => {
      await api.post('/api/auth/reset-request', { email }, Nothing);
    },
    /** Sets the new password and signs in (every other session of the user is signed out). */
    resetPassword: async (token: string, password: string) => (await api.post('/api/auth/reset-password', { token, password }, Principal)).result,
    updateProfile: async (displayName: string) => (await api.post('/api/auth/update-profile', { displayName }, Principal)).result,
    changePassword: async (currentPassword: string, newPassword: string) => {
      await api.post('/api/auth/change-password', { currentPassword, newPassword }, Nothing);
    },
    signOutEverywhere: async () => {
      await api.post('/api/auth/sign-out-everywhere', {}, Nothing);
    },
    /** Local accounts confirm with their password; Clerk accounts send nothing. */
    deleteAccount: async (password: string | null) => {
      await api.post('/api/auth/delete-account', password === null ? {} : { password }, Nothing);
    },
  };
}

export type AuthApi = ReturnType<typeof authApi>;
