/**
 * A part of the viewer whose code loads after the page's first paint, while its server-rendered
 * markup stays on screen: rendered by a lazy component inside a <Suspense> boundary, hydration
 * keeps the server's HTML of the boundary until the code arrives and hydrates it then (React's
 * selective hydration; Preact's suspended hydration, which keeps the boundary's first node, the
 * viewer's build running on Preact, vite.config.ts). The server renders the part itself: it
 * preloads the code first, and a loaded part resolves at once (a thenable that calls back
 * synchronously), so renderToString never falls back.
 *
 * A part whose code is not in at its first render (hydrating the server's page) is rendered with
 * those first props until its code has rendered them, and only then with the props it has now:
 * the markup it hydrates is the one the server rendered from the same props. An update reaching
 * a boundary still waiting for its code would otherwise hydrate the server's markup with other
 * props (React then drops the server's markup for the fallback; Preact hydrates it as it is, and
 * an element added since takes the place of the server's next one: the popup of a deep link
 * opening before a basemap floor's code was in hydrated into the map's hint).
 */
import { createElement, lazy, memo, Suspense, useCallback, useEffect, useMemo, useState, type ComponentType } from 'react';

export interface LazyPart<P> {
  /**
   * The part in its own <Suspense> boundary, behind memo: a render of its parent before the
   * code is in does not reach the boundary (an update there would swap the server's markup for
   * the fallback).
   */
  Part: ComponentType<P>;
  /** Loads the part's code (the server awaits it before rendering). */
  preload(): Promise<unknown>;
}

interface RenderedProps<P> {
  part: P;
  /** Called once the part has been rendered (hydrated) for the first time. */
  onRendered: () => void;
}

export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () => (loading ??= load().then((component) => (loaded = component)));
  /** The loaded part, telling its boundary once it is on the page. */
  const Rendered = ({ part, onRendered }: RenderedProps<P>) => {
    useEffect(() => onRendered(), [onRendered]);
    return createElement(loaded!, part);
  };
  const Lazy = lazy<ComponentType<RenderedProps<P>>>(() => {
    if (loaded) return { then: (resolve: (module: { default: ComponentType<RenderedProps<P>> }) => void) => resolve({ default: Rendered }) } as Promise<{ default: ComponentType<RenderedProps<P>> }>;
    return preload().then(() => ({ default: Rendered }));
  }) as unknown as ComponentType<RenderedProps<P>>;
  const Part = (props: P) => {
    // The props the server's markup was rendered from, while the code is not in (null: none held).
    const [first, setFirst] = useState<P | null>(() => (loaded ? null : props));
    const shown = first ?? props;
    const onRendered = useCallback(() => setFirst(null), []);
    // The same element while the first props are held: the parent's renders stop here.
    return useMemo(() => createElement(Suspense, { fallback: null }, createElement(Lazy, { part: shown, onRendered })), [shown, onRendered]);
  };
  return { Part: memo(Part) as unknown as ComponentType<P>, preload };
}
