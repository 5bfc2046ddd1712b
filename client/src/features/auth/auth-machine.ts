/**
 * The auth state (spec §4): "On the auth state, if signed in, the token is refreshed, admin and
 * role are set, maps and subscriptions are loaded. On logout, maps are cleared and the loaded
 * flag is reset." Login and logout return their error instead of throwing (spec §8): a failure
 * lands in `context.error`, and {@link loginWith} / {@link logoutWith} resolve to it.
 *
 *   checking ──user──▶ signedIn: preparing (token refresh: admin, role) ▶ loading (maps ∥ subscriptions) ▶ ready
 *      └──null──▶ signedOut: idle ◀▶ loggingIn | registering | confirmingSignUp | rechecking
 *   signedIn ──LOGOUT──▶ loggingOut ──▶ signedOut (maps cleared, loaded reset) | back to signedIn with the error
 *
 * All I/O is injected (fromPromise actors, see {@link authActors}): who is signed in, login,
 * register, logout and the token refresh differ between the local accounts and Clerk; maps and
 * subscriptions come from the API. The defaults here reject, so a machine without its actors
 * fails loudly instead of pretending.
 */
import { assign, fromPromise, setup, waitFor, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { Principal } from '../../../../events/principal';
import type { MapListItem } from '../../../../events/read-models';
import { toApiError, type ApiError } from '../../lib/api';
import type { RegisterDetails } from '../../lib/session';

export type { RegisterDetails };

/** A registration either signs in at once, or (Clerk) waits for the code e-mailed to `email`. */
export type RegisterOutcome = { user: Principal } | { verifyEmail: string };

/** The token claims the app acts on (spec §3). */
export interface Claims {
  admin: boolean;
  stripeRole: string | null;
}

export interface AuthContext {
  user: Principal | null;
  admin: boolean;
  stripeRole: string | null;
  /** The user's maps (spec §3 "shared interface state"). */
  maps: MapListItem[];
  /** The user's subscriptions; loaded by the billing issue's actor (none until then). */
  subscriptions: unknown[];
  /** Whether the maps have been loaded for the signed-in user. */
  loaded: boolean;
  /** The last failure of login, register, logout or a load; cleared when the next attempt starts. */
  error: ApiError | null;
  /** Clerk sign-up waiting for the e-mailed code. */
  pendingSignUp: { email: string } | null;
}

export type AuthEvent =
  | { type: 'LOGIN'; email: string; password: string }
  | { type: 'REGISTER'; details: RegisterDetails }
  | { type: 'CONFIRM_SIGN_UP'; code: string }
  | { type: 'LOGOUT' }
  /** Ask again who is signed in (a refused live socket, Clerk's session changed). */
  | { type: 'REFRESH' }
  /** The server answered with the signed-in user outside login (reset password, verify email, profile). */
  | { type: 'USER'; user: Principal }
  /** The session ended on the server (signed out everywhere, account deleted): forget it here too. */
  | { type: 'SESSION_ENDED' }
  /** A fresh maps list (the live topic). */
  | { type: 'MAPS'; maps: MapListItem[] };

const notProvided = (name: string) => () => Promise.reject(new Error(`The auth machine's ${name} actor was not provided.`));

const claimsOf = (user: Principal): Claims => ({ admin: user.admin, stripeRole: user.stripeRole });

const signedOutContext = {
  user: null,
  admin: false,
  stripeRole: null,
  maps: [],
  subscriptions: [],
  loaded: false,
} satisfies Partial<AuthContext>;

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
  },
  actors: {
    /** Who is signed in now, or null. */
    checkSession: fromPromise<Principal | null>(notProvided('checkSession')),
    login: fromPromise<Principal, { email: string; password: string }>(notProvided('login')),
    register: fromPromise<RegisterOutcome, RegisterDetails>(notProvided('register')),
    confirmSignUp: fromPromise<Principal, { code: string }>(notProvided('confirmSignUp')),
    logout: fromPromise<void>(notProvided('logout')),
    /** Forgets a session the server already ended (Clerk: signs out of Clerk here; local: nothing). */
    endSession: fromPromise<void>(notProvided('endSession')),
    /** Refreshes the auth token and gives its claims. */
    refreshToken: fromPromise<Claims, { user: Principal }>(notProvided('refreshToken')),
    loadMaps: fromPromise<MapListItem[], { user: Principal }>(notProvided('loadMaps')),
    loadSubscriptions: fromPromise<unknown[], { user: Principal }>(notProvided('loadSubscriptions')),
  },
  actions: {
    clearAccount: assign(signedOutContext),
    clearError: assign({ error: null }),
    setError: assign({ error: (_, params: { error: unknown }) => toApiError(params.error) }),
    setUser: assign((_, params: { user: Principal }) => ({ user: params.user, ...claimsOf(params.user) })),
    /** Store actions other than login and logout log their errors (spec §8). */
    logError: (_, params: { what: string; error: unknown }) => {
      console.warn(`Auth: ${params.what} failed:`, toApiError(params.error).message);
    },
  },
  guards: {
    hasUser: (_, params: { user: Principal | null }) => params.user !== null,
    sameUser: ({ context }, params: { user: Principal | null }) => params.user !== null && params.user.uid === context.user?.uid,
    hasPendingSignUp: ({ context }) => context.pendingSignUp !== null,
  },
}).createMachine({
  id: 'auth',
  initial: 'checking',
  context: { ...signedOutContext, error: null, pendingSignUp: null },
  states: {
    checking: {
      on: {
        // The server already answered with the user (e.g. a verification link opened as the page loads).
        USER: { target: 'signedIn', actions: { type: 'setUser', params: ({ event }) => ({ user: event.user }) } },
      },
      invoke: {
        src: 'checkSession',
        onDone: [
          { guard: { type: 'hasUser', params: ({ event }) => ({ user: event.output }) }, target: 'signedIn', actions: { type: 'setUser', params: ({ event }) => ({ user: event.output! }) } },
          { target: 'signedOut' },
        ],
        // Unknown who is signed in (offline, server down): signed out; pages that need a user offer to log in.
        onError: { target: 'signedOut', actions: { type: 'logError', params: ({ event }) => ({ what: 'checking the session', error: event.error }) } },
      },
    },

    signedOut: {
      entry: 'clearAccount',
      initial: 'idle',
      on: {
        USER: { target: 'signedIn', actions: [{ type: 'setUser', params: ({ event }) => ({ user: event.user }) }, assign({ pendingSignUp: null })] },
      },
      states: {
        idle: {
          on: {
            LOGIN: 'loggingIn',
            REGISTER: 'registering',
            CONFIRM_SIGN_UP: { guard: 'hasPendingSignUp', target: 'confirmingSignUp' },
            REFRESH: 'rechecking',
          },
        },
        loggingIn: {
          entry: 'clearError',
          invoke: {
            src: 'login',
            input: ({ event }) => (event.type === 'LOGIN' ? { email: event.email, password: event.password } : { email: '', password: '' }),
            onDone: { target: '#auth.signedIn', actions: [{ type: 'setUser', params: ({ event }) => ({ user: event.output }) }, assign({ pendingSignUp: null })] },
            onError: { target: 'idle', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        registering: {
          entry: 'clearError',
          invoke: {
            src: 'register',
            input: ({ event }) => (event.type === 'REGISTER' ? event.details : { displayName: '', email: '', password: '' }),
            onDone: [
              {
                guard: ({ event }) => 'user' in event.output,
                target: '#auth.signedIn',
                actions: [{ type: 'setUser', params: ({ event }) => ({ user: (event.output as { user: Principal }).user }) }, assign({ pendingSignUp: null })],
              },
              { target: 'idle', actions: assign({ pendingSignUp: ({ event }) => ({ email: (event.output as { verifyEmail: string }).verifyEmail }) }) },
            ],
            onError: { target: 'idle', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        confirmingSignUp: {
          entry: 'clearError',
          invoke: {
            src: 'confirmSignUp',
            input: ({ event }) => ({ code: event.type === 'CONFIRM_SIGN_UP' ? event.code : '' }),
            onDone: { target: '#auth.signedIn', actions: [{ type: 'setUser', params: ({ event }) => ({ user: event.output }) }, assign({ pendingSignUp: null })] },
            onError: { target: 'idle', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
        rechecking: {
          invoke: {
            src: 'checkSession',
            onDone: [
              { guard: { type: 'hasUser', params: ({ event }) => ({ user: event.output }) }, target: '#auth.signedIn', actions: { type: 'setUser', params: ({ event }) => ({ user: event.output! }) } },
              { target: 'idle' },
            ],
            onError: 'idle',
          },
        },
      },
    },

    signedIn: {
      initial: 'preparing',
      on: {
        LOGOUT: '#auth.loggingOut',
        REFRESH: '.refreshing',
        SESSION_ENDED: '#auth.endingSession',
        USER: [
          { guard: { type: 'sameUser', params: ({ event }) => ({ user: event.user }) }, actions: { type: 'setUser', params: ({ event }) => ({ user: event.user }) } },
          // Another account now (signed in elsewhere in this browser): start over for it.
          { target: '#auth.signedIn', reenter: true, actions: ['clearAccount', { type: 'setUser', params: ({ event }) => ({ user: event.user }) }] },
        ],
        MAPS: { actions: assign({ maps: ({ event }) => event.maps, loaded: true }) },
      },
      states: {
        /** The token is refreshed; admin and role come from its claims. */
        preparing: {
          invoke: {
            src: 'refreshToken',
            input: ({ context }) => ({ user: context.user! }),
            onDone: { target: 'loading', actions: assign(({ event }) => ({ admin: event.output.admin, stripeRole: event.output.stripeRole })) },
            onError: { target: 'loading', actions: { type: 'logError', params: ({ event }) => ({ what: 'refreshing the token', error: event.error }) } },
          },
        },
        /** Maps and subscriptions load side by side. */
        loading: {
          type: 'parallel',
          onDone: 'ready',
          states: {
            maps: {
              initial: 'loading',
              states: {
                loading: {
                  invoke: {
                    src: 'loadMaps',
                    input: ({ context }) => ({ user: context.user! }),
                    onDone: { target: 'done', actions: assign({ maps: ({ event }) => event.output, loaded: true }) },
                    onError: {
                      target: 'done',
                      actions: [
                        { type: 'setError', params: ({ event }) => ({ error: event.error }) },
                        { type: 'logError', params: ({ event }) => ({ what: 'loading the maps', error: event.error }) },
                      ],
                    },
                  },
                },
                done: { type: 'final' },
              },
            },
            subscriptions: {
              initial: 'loading',
              states: {
                loading: {
                  invoke: {
                    src: 'loadSubscriptions',
                    input: ({ context }) => ({ user: context.user! }),
                    onDone: { target: 'done', actions: assign({ subscriptions: ({ event }) => event.output }) },
                    onError: { target: 'done', actions: { type: 'logError', params: ({ event }) => ({ what: 'loading the subscriptions', error: event.error }) } },
                  },
                },
                done: { type: 'final' },
              },
            },
          },
        },
        ready: {},
        /** Asks the server again; still the same user: refresh the token and reload; nobody: signed out. */
        refreshing: {
          invoke: {
            src: 'checkSession',
            onDone: [
              {
                guard: { type: 'sameUser', params: ({ event }) => ({ user: event.output }) },
                target: 'preparing',
                actions: { type: 'setUser', params: ({ event }) => ({ user: event.output! }) },
              },
              {
                guard: { type: 'hasUser', params: ({ event }) => ({ user: event.output }) },
                target: 'preparing',
                actions: ['clearAccount', { type: 'setUser', params: ({ event }) => ({ user: event.output! }) }],
              },
              { target: '#auth.signedOut' },
            ],
            // Could not ask (offline): keep the session; the next refresh decides.
            onError: { target: 'ready', actions: { type: 'logError', params: ({ event }) => ({ what: 'checking the session', error: event.error }) } },
          },
        },
        history: { type: 'history', history: 'deep' },
      },
    },

    loggingOut: {
      entry: 'clearError',
      invoke: {
        src: 'logout',
        onDone: '#auth.signedOut',
        onError: { target: '#auth.signedIn.history', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
      },
    },

    endingSession: {
      invoke: {
        src: 'endSession',
        onDone: '#auth.signedOut',
        onError: { target: '#auth.signedOut', actions: { type: 'logError', params: ({ event }) => ({ what: 'ending the session', error: event.error }) } },
      },
    },
  },
});

export type AuthActor = ActorRefFrom<typeof authMachine>;
export type AuthSnapshot = SnapshotFrom<typeof authMachine>;

/** The machine's I/O: what {@link authActors} turns into its actors. */
export interface AuthServices {
  checkSession(): Promise<Principal | null>;
  login(email: string, password: string): Promise<Principal>;
  register(details: RegisterDetails): Promise<RegisterOutcome>;
  confirmSignUp(code: string): Promise<Principal>;
  logout(): Promise<void>;
  endSession(): Promise<void>;
  refreshToken(user: Principal): Promise<Claims>;
  loadMaps(user: Principal): Promise<MapListItem[]>;
  /** Defaults to none: the billing issue provides the real call (the user's subscriptions). */
  loadSubscriptions?(user: Principal): Promise<unknown[]>;
}

/** The machine with its actors bound to `services`. */
export function authMachineWith(services: AuthServices) {
  return authMachine.provide({
    actors: {
      checkSession: fromPromise(() => services.checkSession()),
      login: fromPromise(({ input }) => services.login(input.email, input.password)),
      register: fromPromise(({ input }) => services.register(input)),
      confirmSignUp: fromPromise(({ input }) => services.confirmSignUp(input.code)),
      logout: fromPromise(() => services.logout()),
      endSession: fromPromise(() => services.endSession()),
      refreshToken: fromPromise(({ input }) => services.refreshToken(input.user)),
      loadMaps: fromPromise(({ input }) => services.loadMaps(input.user)),
      // The billing issue provides the real call; until then nobody has subscriptions.
      loadSubscriptions: fromPromise(({ input }) => services.loadSubscriptions?.(input.user) ?? Promise.resolve([])),
    },
  });
}

/** What the rest of the app calls the session's state. */
export function statusOf(snapshot: AuthSnapshot): 'loading' | 'signedIn' | 'signedOut' {
  if (snapshot.matches('checking')) return 'loading';
  if (snapshot.matches('signedOut')) return 'signedOut';
  return 'signedIn';
}

/** Sends `event` and waits until the machine leaves the state it starts, then gives the snapshot. */
async function settle(actor: AuthActor, event: AuthEvent, busy: (snapshot: AuthSnapshot) => boolean): Promise<AuthSnapshot> {
  actor.send(event);
  return waitFor(actor, (snapshot) => !busy(snapshot), { timeout: Infinity });
}

/** Logs in; resolves to the error (spec §8: login returns it), or null once signed in. */
export async function loginWith(actor: AuthActor, email: string, password: string): Promise<ApiError | null> {
  const snapshot = await settle(actor, { type: 'LOGIN', email, password }, (s) => s.matches({ signedOut: 'loggingIn' }));
  return snapshot.matches('signedIn') ? null : (snapshot.context.error ?? null);
}

/** Registers; resolves to the error or null (signed in, or waiting for the e-mailed code). */
export async function registerWith(actor: AuthActor, details: RegisterDetails): Promise<ApiError | null> {
  const snapshot = await settle(actor, { type: 'REGISTER', details }, (s) => s.matches({ signedOut: 'registering' }));
  return snapshot.matches('signedIn') || snapshot.context.pendingSignUp ? null : (snapshot.context.error ?? null);
}

export async function confirmSignUpWith(actor: AuthActor, code: string): Promise<ApiError | null> {
  const snapshot = await settle(actor, { type: 'CONFIRM_SIGN_UP', code }, (s) => s.matches({ signedOut: 'confirmingSignUp' }));
  return snapshot.matches('signedIn') ? null : (snapshot.context.error ?? null);
}

/** Logs out; resolves to the error (spec §8: logout returns it), or null once signed out. */
export async function logoutWith(actor: AuthActor): Promise<ApiError | null> {
  const snapshot = await settle(actor, { type: 'LOGOUT' }, (s) => s.matches('loggingOut'));
  return snapshot.matches('signedOut') ? null : (snapshot.context.error ?? null);
}

/** Asks again who is signed in; resolves once the answer is applied. */
export async function refreshWith(actor: AuthActor): Promise<void> {
  await settle(actor, { type: 'REFRESH' }, (s) => s.matches('checking') || s.matches({ signedOut: 'rechecking' }) || s.matches({ signedIn: 'refreshing' }));
}

/** Forgets a session the server ended; resolves once signed out here. */
export async function endSessionWith(actor: AuthActor): Promise<void> {
  await settle(actor, { type: 'SESSION_ENDED' }, (s) => s.matches('endingSession'));
}
