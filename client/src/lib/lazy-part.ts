/**
 * A part of the viewer whose code loads after the page's first paint, while its server-rendered
 * markup stays on screen: rendered by React.lazy inside a <Suspense> boundary, hydration keeps
 * the server's HTML of the boundary until the code arrives and hydrates it then (React's
 * selective hydration). The server renders the part itself: it preloads the code first, and a
 * loaded part resolves at once (a thenable that calls back synchronously), so renderToString
 * never falls back.
 */
import { createElement, lazy, memo, Suspense, type ComponentType } from 'react';

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

export function lazyPart<P extends object>(load: () => Promise<ComponentType<P>>): LazyPart<P> {
  let loaded: ComponentType<P> | null = null;
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () => (loading ??= load().then((component) => (loaded = component)));
  const Part = lazy<ComponentType<P>>(() => {
    const component = loaded;
    if (component) return { then: (resolve: (module: { default: ComponentType<P> }) => void) => resolve({ default: component }) } as Promise<{ default: ComponentType<P> }>;
    return preload().then((resolved) => ({ default: resolved }));
  });
  const Lazy = Part as unknown as ComponentType<P>;
  return { Part: memo((props: P) => createElement(Suspense, { fallback: null }, createElement(Lazy, props))) as unknown as ComponentType<P>, preload };
}
