/**
 * ESLint (flat config), run by `npm run lint` and so by `npm test`.
 *
 * Three jobs: typescript-eslint's recommended rules everywhere; React's hook rules (and the
 * React Compiler's checks that fit this code) in client/; and the one-way import rules the
 * layout promises (see client/README.md, events/README.md), which nothing else checks:
 * - events/ is pure and isomorphic: nothing of the project outside events/, nothing Node-only;
 * - ports/ (the database and event-store interfaces) imports only events/; projections/ never
 *   imports server/ (it reaches the database and the log through ports/);
 * - client/ shares only events/ with the rest, and nothing Node-only;
 * - in client/, features do not import each other or app/, and shared code (components/,
 *   lib/, utils/) imports no feature or app; the public viewer entry imports no feature but
 *   the viewer;
 * - server plugins and routes do not import server/app.ts (the app is built from them);
 * - no import circles anywhere.
 */
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const FEATURES = [
  'admin',
  'auth',
  'billing',
  'comments',
  'consent',
  'contact',
  'editor',
  'maps',
  'marketing',
  'new-map',
  'sharing',
  'viewer',
];

/** Every feature folder may import only from itself (and shared code, and events/). */
const featureZones = FEATURES.map((feature) => ({
  target: `./client/src/features/${feature}`,
  from: './client/src/features',
  except: [`./${feature}`],
  message: 'Features do not import each other: move what both need into components/, lib/ or utils/.',
}));

export default defineConfig([
  globalIgnores(['dist/', 'data/', '.data-test/', 'test-results/', 'screenshots/', 'scratch/']),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    name: 'mapfold/languages',
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: { ...globals.node },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_name` marks an argument or binding that is there on purpose (a callback's shape).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },

  {
    name: 'mapfold/browser',
    files: ['client/**'],
    languageOptions: { globals: { ...globals.browser } },
  },

  {
    // The hook rules and the React Compiler's checks, but two of the latter:
    // - refs: the renderer, the editor and the live hooks keep the latest props in a ref on
    //   purpose (`live.current = props`), so the handlers they give the canvas, the gestures and
    //   the socket stay the same function for good, and the viewer asks the renderer's handle
    //   where a region is while it renders (and once props are stored in a ref, the rule takes
    //   every read of them for a ref read). It forbids both, and React has no equivalent
    //   for handlers handed down (useEffectEvent is for effects only): rewriting the 15 places
    //   would change when each value is seen, for no bug found.
    // - set-state-in-effect: it flags "loading" or "reset" set at the start of an effect that
    //   fetches or follows something for a key (18 places); the cost is one extra render, and
    //   the alternatives (keyed remounts, state adjusted during render) each change behaviour.
    name: 'mapfold/react-hooks',
    files: ['client/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    rules: {
      'react-hooks/refs': 'off',
      'react-hooks/set-state-in-effect': 'off',
    },
  },

  {
    // Tests read JSON answers loosely and let their assertions check the shape.
    name: 'mapfold/tests',
    files: ['test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },

  {
    name: 'mapfold/imports',
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [
        // As TypeScript resolves: server code imports `./x.js` for `./x.ts`; the client omits it.
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json', '.node'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        }),
      ],
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
    },
    rules: {
      // An import the resolver cannot follow would slip past every rule below unseen.
      // (Vite's virtual modules, such as the compiled catalogues of scripts/viewer-messages-plugin.ts, have no file.)
      'import-x/no-unresolved': ['error', { ignore: ['^virtual:'] }],
      // Packages cannot import the project back: not walking node_modules keeps this fast.
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          basePath: import.meta.dirname,
          zones: [
            {
              target: './events',
              from: '.',
              except: ['./events', './node_modules'],
              message: 'events/ is pure and shared with the browser: it imports nothing of the project outside events/.',
            },
            {
              target: './ports',
              from: '.',
              except: ['./ports', './events', './node_modules'],
              message: 'ports/ holds the interfaces the server and the projections share (the database, the event store): it imports only events/.',
            },
            {
              target: './projections',
              from: ['./server', './client'],
              message: 'projections/ reads the log through ports/ and never imports server/: the server is built on the projections, not the other way round.',
            },
            {
              target: './client',
              from: ['./server', './projections', './test', './bench', './scripts'],
              message: 'The client shares only events/ with the server (schemas, the live protocol, read-model types).',
            },
            ...featureZones,
            {
              target: './client/src/features',
              from: './client/src/app',
              message: 'Features do not import app/: move what they need into components/, lib/ or utils/.',
            },
            {
              target: ['./client/src/components', './client/src/lib', './client/src/utils'],
              from: ['./client/src/features', './client/src/app'],
              message: 'Shared client code imports no feature and no app code.',
            },
            {
              target: ['./client/src/viewer-main.tsx', './client/src/viewer-server.tsx'],
              from: './client/src/features',
              except: ['./viewer'],
              message: 'The public viewer entry stays small: it loads the viewer feature and shared code only.',
            },
            {
              target: ['./client/src/viewer-main.tsx', './client/src/viewer-server.tsx'],
              from: './client/src/app',
              message: 'The public viewer entry stays small: no router, accounts or app shell.',
            },
            {
              // Everything in server/ but main.ts, the process entry that starts the app.
              target: ['./server/!(main).ts', './server/*/**'],
              from: './server/app.ts',
              message: 'The app is built from the server plugins; they get what they need as arguments (see server/services.ts).',
            },
          ],
        },
      ],
    },
  },

  {
    name: 'mapfold/client-in-browser',
    files: ['client/**'],
    rules: { 'import-x/no-nodejs-modules': 'error' },
  },

  {
    // events/ runs in the browser too: no Node modules, no Node globals (the TypeScript types
    // include Node's for the whole tree, so the compiler would not notice).
    name: 'mapfold/events-isomorphic',
    files: ['events/**'],
    rules: {
      'import-x/no-nodejs-modules': 'error',
      'no-restricted-globals': [
        'error',
        ...['process', 'Buffer', 'global', 'require', 'module', '__dirname', '__filename', 'setImmediate'].map((name) => ({
          name,
          message: 'events/ runs in the browser too: pass what it needs in as an argument.',
        })),
      ],
    },
  },
]);
