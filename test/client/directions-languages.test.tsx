/**
 * The directions in the visitor's language (issue 19): the demo mall's step-free pair (Urban
 * Thread to Cinema Royale by Lift A) in Spanish and in Arabic, rendered inside an I18nProvider
 * with the catalogues as the build compiles them. The steps are whole sentences of that
 * language (the lift named, the turn's landmark, the destination's side), the distance and the
 * time are written as the locale writes them, and so are the stepper, the announcements and the
 * floor change over the map. English comes from the same messages (test/client/directions.test.tsx).
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import es from 'virtual:viewer-messages/es';
import ar from 'virtual:viewer-messages/ar';
import en from 'virtual:viewer-messages/en';
import { DirectionsPanel, type DirectionsPanelProps } from '../../client/src/features/viewer/directions/directions-panel';
import { loadDirectionsCode } from '../../client/src/features/viewer/directions/use-directions';
import { preloadViewerParts, Viewer } from '../../client/src/features/viewer/viewer';
import { I18nProvider } from '../../client/src/i18n/i18n-context';
import { metresText, stepSentence, walkingTimeText } from '../../client/src/i18n/route-words';
import { createTranslator, type Translator } from '../../client/src/i18n/translator';
import { findRoute } from '../../events/wayfinding/find-route';
import type { MapDocument } from '../../events/map-document';
import { demoMallDocument } from '../../server/seed/demo-mall';
import { DEMO_STEP_FREE_PAIR } from '../../server/seed/demo-mall-paths';

const spanish = createTranslator('es', es);
const arabic = createTranslator('ar', ar);
const english = createTranslator('en', en);
const demo: MapDocument = demoMallDocument();

function panelProps(overrides: Partial<DirectionsPanelProps> = {}): DirectionsPanelProps {
  const { from, to } = DEMO_STEP_FREE_PAIR;
  return {
    locations: [...demo.locations].sort((a, b) => a.title.localeCompare(b.title)),
    byId: new Map(demo.locations.map((location) => [location.id, location])),
    groupsById: new Map(demo.groups.map((group) => [group.id, group])),
    layerNames: new Map(demo.layers.map((layer) => [layer.id, layer.name])),
    from,
    to,
    stepFree: true,
    step: null,
    here: null,
    result: findRoute(demo, { location: from }, { location: to }, { stepFree: true }),
    onChange: vi.fn(),
    onSwap: vi.fn(),
    onStep: vi.fn(),
    onClose: vi.fn(),
    ...overrides,
  };
}

function inLanguage(translator: Translator, children: ReactNode) {
  return <I18nProvider translator={translator}>{children}</I18nProvider>;
}

const stepTexts = (name: string) =>
  within(screen.getByRole('list', { name }))
    .getAllByRole('listitem')
    .map((item) => item.querySelector('.mf-step__sentence')?.textContent);
const stepDistances = (name: string) =>
  within(screen.getByRole('list', { name }))
    .getAllByRole('listitem')
    .map((item) => item.querySelector('.mf-step__distance')?.textContent ?? null);
const announcer = () => document.querySelector('.mf-directions [role="status"]')!;

describe('the directions panel in Spanish', () => {
  it('words the steps in Spanish, names the lift, and writes distance and time as Spanish does', () => {
    const props = panelProps();
    const { rerender } = render(inLanguage(spanish, <DirectionsPanel {...props} />));
    expect(screen.getByRole('region', { name: 'Cómo llegar' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Desde' })).toHaveValue('Urban Thread');
    expect(screen.getByRole('combobox', { name: 'Hasta' })).toHaveValue('Cinema Royale');
    expect(screen.getByRole('switch', { name: /^Sin escalones/ })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('button', { name: 'Intercambiar origen y destino' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cerrar indicaciones' })).toBeInTheDocument();

    expect(stepTexts('Cómo llegar')).toEqual([
      'Empieza en Urban Thread',
      'Gira a la derecha',
      'Toma el Lift A hasta Level 1',
      'Gira a la derecha después de FitZone Gym',
      'Cinema Royale está justo delante',
    ]);
    expect(stepDistances('Cómo llegar')).toEqual([null, '5 m', '50 m', '40 m', '5 m']);
    expect(screen.getByText('Ground floor → Level 1')).toBeInTheDocument();

    // 106 m in about two minutes: rounded as a sign would be, the walk after the time.
    const time = document.querySelector('.mf-route-summary__time')!;
    expect(time.querySelector('strong')).toHaveTextContent('2 min');
    expect(time).toHaveTextContent('2 min a pie');
    expect(document.querySelector('.mf-route-summary__detail')).toHaveTextContent(/^110 m · por el ascensorSin escalones$/);
    expect(screen.getByText('5 pasos')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Empezar: primer paso' })).toHaveTextContent('Empezar');
    expect(screen.getByRole('button', { name: 'Paso anterior' })).toHaveTextContent('‹ Anterior');
    expect(announcer()).toHaveTextContent('Ruta encontrada: 2 min, 110 m, 5 pasos.');

    // Following the route: the step reached is read out in Spanish, with its distance.
    rerender(inLanguage(spanish, <DirectionsPanel {...props} step={2} />));
    expect(screen.getByText('Paso 3 de 5')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Paso siguiente' })).toHaveTextContent('Siguiente ›');
    expect(announcer().textContent).toBe('Paso 3 de 5: Toma el Lift A hasta Level 1, 50 m.');
  });

  it('says why there is no route, in Spanish', () => {
    render(inLanguage(spanish, <DirectionsPanel {...panelProps({ result: { ok: false, failure: { reason: 'no-step-free-path' } } })} />));
    expect(screen.getByRole('alert')).toHaveTextContent('No hay ninguna ruta sin escalones entre estos lugares.');
  });

  it('asks for the ends first', () => {
    render(inLanguage(spanish, <DirectionsPanel {...panelProps({ from: null, to: null, result: null })} />));
    expect(screen.getByText('Elige dónde estás y adónde quieres ir.')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Desde' })).toHaveAttribute('placeholder', 'Elige un punto de partida');
  });
});

describe('the directions panel in Arabic', () => {
  it('words the steps in Arabic, with Arabic plurals and the locale’s numbers', () => {
    const props = panelProps();
    const { rerender } = render(inLanguage(arabic, <DirectionsPanel {...props} />));
    expect(screen.getByRole('region', { name: 'الاتجاهات' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'من' })).toHaveValue('Urban Thread');
    expect(screen.getByRole('combobox', { name: 'إلى' })).toHaveValue('Cinema Royale');
    expect(stepTexts('الاتجاهات')).toEqual([
      'ابدأ من Urban Thread',
      'انعطف يمينًا',
      'استقل Lift A إلى Level 1',
      'انعطف يمينًا بعد FitZone Gym',
      'Cinema Royale أمامك مباشرةً',
    ]);
    // Metres as Arabic writes them (Intl), the floor change pointing the way Arabic reads: the
    // floors' names isolated (FSI…PDI), so Latin names do not turn the arrow's run left to right.
    const metres = (value: number) => new Intl.NumberFormat('ar', { style: 'unit', unit: 'meter' }).format(value);
    expect(stepDistances('الاتجاهات')).toEqual([null, metres(5), metres(50), metres(40), metres(5)]);
    expect(screen.getByText('\u2068Ground floor\u2069 ← \u2068Level 1\u2069')).toBeInTheDocument();
    // Two minutes: Arabic's dual, not a number and an abbreviation.
    expect(document.querySelector('.mf-route-summary__time')).toHaveTextContent('دقيقتان سيرًا');
    expect(document.querySelector('.mf-route-summary__detail')).toHaveTextContent(`${metres(110)} · عبر المصعد`);
    expect(screen.getByText(`${arabic.n(5)} خطوات`)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'الخطوة السابقة' })).toHaveTextContent('‹ السابقة');

    rerender(inLanguage(arabic, <DirectionsPanel {...props} step={4} />));
    expect(screen.getByText(`الخطوة ${arabic.n(5)} من ${arabic.n(5)}`)).toBeInTheDocument();
    expect(announcer().textContent).toBe(`الخطوة ${arabic.n(5)} من ${arabic.n(5)}: Cinema Royale أمامك مباشرةً، ${metres(5)}.`);
  });
});

describe('one wording for every reader', () => {
  it('gives the editor’s walked form from the same messages, in each language', () => {
    const result = findRoute(demo, { location: DEMO_STEP_FREE_PAIR.from }, { location: DEMO_STEP_FREE_PAIR.to }, { stepFree: true });
    if (!result.ok) throw new Error('the demo pair has a step-free route');
    const lift = result.route.steps[2]!;
    expect(stepSentence(english, lift)).toBe('Take Lift A to Level 1');
    expect(stepSentence(english, lift, { distance: true })).toMatch(/^Walk \d+ m, then take Lift A to Level 1$/);
    expect(stepSentence(spanish, lift, { distance: true })).toMatch(/^En \d+ m, toma el Lift A hasta Level 1$/);
    // Distances and times through Intl or the locale's plurals, never English digits.
    expect(metresText(spanish, 1234)).toBe('1,2 km');
    expect(metresText(english, 1234)).toBe('1.2 km');
    expect(walkingTimeText(arabic, 60)).toBe('دقيقة واحدة');
    expect(walkingTimeText(english, 600)).toBe('10 min');
  });
});

describe('the viewer’s directions in Spanish', () => {
  beforeAll(() => Promise.all([preloadViewerParts(), loadDirectionsCode()]));
  beforeEach(() => {
    window.history.replaceState(null, '', `/m/demo?from=${DEMO_STEP_FREE_PAIR.from}&to=${DEMO_STEP_FREE_PAIR.to}&stepfree=1`);
  });

  it('opens the route the address names, and the floor change over the map says which lift and where', async () => {
    const user = userEvent.setup();
    render(inLanguage(spanish, <Viewer map={{ id: 'demo', title: 'Riverside Mall', state: 2, data: demo, revision: '1', test: false }} />));
    await screen.findByRole('list', { name: 'Cómo llegar' });
    expect(stepTexts('Cómo llegar')).toContain('Toma el Lift A hasta Level 1');
    const prompt = await screen.findByRole('group', { name: 'Cambio de planta' });
    expect(prompt).toHaveTextContent('Toma el Lift A hasta Level 1');
    await user.click(within(prompt).getByRole('button', { name: 'Ir a Level 1' }));
    expect(screen.queryByRole('group', { name: 'Cambio de planta' })).not.toBeInTheDocument();
  });
});
