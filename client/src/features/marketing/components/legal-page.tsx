import { useEffect, useState, type ReactNode } from 'react';
import { isHydrating } from '../../../lib/hydration';
import './legal.css';
import { PageDescription } from './page-description';

export interface LegalSection {
  /** The in-page anchor, e.g. 'billing' for #billing. */
  id: string;
  title: string;
  body: ReactNode;
}

export interface LegalDocument {
  title: string;
  /** The meta description. */
  description: string;
  /** One or two sentences under the title: what the document covers and whom it binds. */
  summary: ReactNode;
  /** When this version took effect, as written (e.g. '1 November 2026'), and its ISO date. */
  effective: { text: string; iso: string };
  sections: readonly LegalSection[];
}

/** The table of contents: numbered in-page links, the same numbers as the headings. */
function Contents({ sections, current }: { sections: readonly LegalSection[]; current: string | null }) {
  return (
    <ol className="legal-toc__list">
      {sections.map((section, index) => (
        <li key={section.id}>
          <a href={`#${section.id}`} aria-current={section.id === current ? 'location' : undefined}>
            <span className="legal-toc__num">{index + 1}.</span> {section.title}
          </a>
        </li>
      ))}
    </ol>
  );
}

/** Where the contents stop folding and stick beside the text (as in legal.css). */
const WIDE_QUERY = '(min-width: 900px)';

/** Whether the window is wide enough for the side contents; wide where matchMedia is missing. */
function useWide(): boolean {
  const media = () => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(WIDE_QUERY) : null);
  // A prerendered page was built wide (no window then): hydrate it so, then ask the window.
  const [wide, setWide] = useState(() => (isHydrating() ? true : (media()?.matches ?? true)));
  useEffect(() => {
    const query = media();
    if (!query) return;
    const update = () => setWide(query.matches);
    update();
    query.addEventListener('change', update);
    return () => query.removeEventListener('change', update);
  }, []);
  return wide;
}

/**
 * The section being read: the last one whose top has passed the upper third of the window.
 * Without IntersectionObserver (old browsers, tests) nothing is marked.
 */
function useCurrentSection(sections: readonly LegalSection[]): string | null {
  const [current, setCurrent] = useState<string | null>(null);
  useEffect(() => {
    if (typeof IntersectionObserver !== 'function') return;
    const elements = sections.map((section) => document.getElementById(section.id)).filter((element): element is HTMLElement => element !== null);
    const pick = () => {
      const line = window.innerHeight / 3;
      let reading: string | null = elements[0]?.id ?? null;
      for (const element of elements) if (element.getBoundingClientRect().top <= line) reading = element.id;
      setCurrent(reading);
    };
    // The observer only says when to look again; which section is current is measured.
    const observer = new IntersectionObserver(pick, { rootMargin: '0px 0px -66% 0px' });
    for (const element of elements) observer.observe(element);
    return () => observer.disconnect();
  }, [sections]);
  return current;
}

/**
 * A legal document: title, effective date, a table of contents with in-page anchors and
 * numbered sections. The contents stick beside the text on wide screens; on phones they sit
 * at the top, folded, so the text starts within the first screen.
 */
export function LegalPage({ document }: { document: LegalDocument }) {
  const { title, description, summary, effective, sections } = document;
  const wide = useWide();
  const current = useCurrentSection(sections);
  return (
    <div className="page legal-page">
      <title>{`${title} · Mapfold`}</title>
      <PageDescription content={description} />
      <div className="container">
        <div className="legal-page__header">
          <span className="eyebrow">Legal</span>
          <h1>{title}</h1>
          <p className="legal-page__effective">
            Effective <time dateTime={effective.iso}>{effective.text}</time>
          </p>
          <div className="legal-page__summary">{summary}</div>
        </div>
        <div className="legal-page__layout">
          <nav className="legal-toc" aria-label="Contents">
            {wide ? (
              <>
                <p className="legal-toc__title">Contents</p>
                <Contents sections={sections} current={current} />
              </>
            ) : (
              <details className="legal-toc__fold">
                <summary className="legal-toc__title">Contents · {sections.length} sections</summary>
                <Contents sections={sections} current={current} />
              </details>
            )}
          </nav>
          <article className="legal-doc">
            {sections.map((section, index) => (
              <section key={section.id} id={section.id} className="legal-doc__section" aria-labelledby={`${section.id}-title`}>
                <h2 id={`${section.id}-title`}>
                  <span className="legal-doc__num">{index + 1}.</span> {section.title}
                </h2>
                {section.body}
              </section>
            ))}
          </article>
        </div>
      </div>
    </div>
  );
}
