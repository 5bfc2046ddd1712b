/**
 * The one module that imports Clerk's React SDK. Everything Clerk-specific goes through these
 * names, so tests replace this module (vi.mock) at the boundary instead of Clerk's network
 * code, and the local mode never loads it: only the lazily imported Clerk root
 * (features/auth/clerk/) imports this module.
 */
export { ClerkProvider, HandleSSOCallback, useAuth, useSignIn, useSignUp } from '@clerk/react';
