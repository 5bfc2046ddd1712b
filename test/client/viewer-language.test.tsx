/**
 * The viewer in the visitor's language (issue 19): rendered inside an I18nProvider with the
 * Spanish and the Arabic catalogues as the build compiles them, its controls, the directory's
 * search, counts and empty state, the details popup, the map's keyboard help and the clusters'
 * names speak that language, numbers in its digits and grouping. Outside a provider (the other
 * viewer tests, the editor) the same components speak English (client/src/i18n/english-fallback.ts).
 */
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import es from 'virtual:viewer-messages/es';
import ar from 'virtual:viewer-messages/ar';
import { clusterLabel } from '../../client/src/components/map/cluster-look';
import type { MarkerItem } from '../../client/src/components/map/marker-layer';
import { setStaticClusterer, staticMarkup } from '../../client/src/components/map/static-map';
import { preloadViewerParts, Viewer, type PublicMap } from '../../client/src/features/viewer/viewer';
import { I18nProvider } from '../../client/src/i18n/i18n-context';
import { createTranslator, type Translator } from '../../client/src/i18n/translator';
import { defaultRegionStyles, defaultSettings, type MapDocument } from '../../events/map-document';
import { location } from './support/locations';

const spanish = createTranslator('es', es);
const arabic = createTranslator('ar', ar);

function mallMap(extra: MapDocument['locations'] = []): PublicMap {
  const data: MapDocument = {
    version: 3,
    settings: { ...defaultSettings(), defaultLayer: 'ground' },
    layers: [
      { id: 'ground', name: 'Planta baja', file: null },
      { id: 'upper', name: 'Planta 1', file: null },
    ],
    groups: [
      { id: 'food', name: 'Comida', color: '#ea580c', legend: true },
      { id: 'shops', name: 'Tiendas', color: '#2563eb', legend: true },
    ],
    locations: [
      location({ id: 'cafe', title: 'Café Noir', groups: ['food', 'shops'], position: { x: 200, y: 150 } }),
      location({ id: 'baker', title: 'Müller Bäckerei', groups: ['food'], position: { x: 400, y: 150 } }),
      location({ id: 'lodz', title: 'Łódź Records', groups: ['shops'], position: { x: 600, y: 300 } }),
      location({ id: 'books', title: 'Page Turner Books', groups: ['shops'], position: { x: 300, y: 500 } }),
      location({ id: 'sushi', title: 'Sakura Sushi', layer: 'upper', groups: ['food'], hours: '11:30–22:00', link: 'https://www.sakura.example/' }),
      ...extra,
    ],
    styles: { regions: defaultRegionStyles() },
    paths: { nodes: [], edges: [], connectors: [] },
  };
  return { id: 'mall', title: 'Riverside Mall', state: 1, data, revision: '3', test: false };
}

/** So many more locations on the upper floor (the directory counts them; the ground floor's map draws none of them). */
function upstairs(count: number): MapDocument['locations'] {
  return Array.from({ length: count }, (_, i) => location({ id: `u${i}`, title: `Tienda ${i}`, layer: 'upper', position: { x: i % 1000, y: Math.floor(i / 1000) } }));
}

function inLanguage(translator: Translator, children: ReactNode) {
  return render(<I18nProvider translator={translator}>{children}</I18nProvider>);
}

const directoryList = (name: string) => screen.getByRole('list', { name });

beforeEach(() => {
  window.history.replaceState(null, '', '/m/mall');
});

// The directory loads after the map's code (lib/lazy-part.ts); loaded once, it renders at once.
beforeAll(() => preloadViewerParts());

describe('the viewer in Spanish', () => {
  it('names its controls, the map and the layers in Spanish', () => {
    inLanguage(spanish, <Viewer map={{ ...mallMap(), test: true }} />);
    const zoom = screen.getByRole('group', { name: 'Zoom' });
    expect(within(zoom).getByRole('button', { name: 'Acercar' })).toBeInTheDocument();
    expect(within(zoom).getByRole('button', { name: 'Alejar' })).toBeDisabled();
    expect(within(zoom).getByRole('button', { name: 'Restablecer vista' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Compartir' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Mapa: Riverside Mall, Planta baja' })).toBeInTheDocument();
    expect(screen.getByRole('application', { name: /^Mapa: Riverside Mall, Planta baja\. Las flechas mueven el mapa/ })).toBeInTheDocument();
    const layers = screen.getByRole('group', { name: 'Capas' });
    expect(within(layers).getByRole('button', { name: 'Planta 1' })).toHaveAttribute('aria-pressed', 'false');
    expect(screen.getByRole('complementary', { name: 'Directorio' })).toBeInTheDocument();
    expect(screen.getByText('Leyenda')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('Mapa de prueba Hasta que se publique, solo es visible para ti y para los administradores.');
    // The hidden buttons of the map's locations, named by title and groups.
    const onMap = screen.getByRole('list', { name: 'Lugares en Planta baja' });
    expect(within(onMap).getByRole('button', { name: 'Café Noir, Comida, Tiendas' })).toBeInTheDocument();
  });

  it('searches, counts and finds nothing in Spanish', async () => {
    const user = userEvent.setup();
    inLanguage(spanish, <Viewer map={mallMap()} />);
    expect(screen.getByText('5 lugares')).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Filtrar por grupo' })).toBeInTheDocument();
    const search = screen.getByRole('searchbox', { name: 'Buscar lugares' });
    expect(search).toHaveAttribute('placeholder', 'Buscar lugares');
    await user.type(search, 'sushi');
    expect(screen.getByText('1 de 5 lugares')).toBeInTheDocument();
    expect(within(directoryList('Lugares')).getByRole('button', { name: /Sakura Sushi/ })).toBeInTheDocument();
    await user.clear(search);
    await user.type(search, 'zapatos');
    expect(screen.getByText('No se han encontrado lugares')).toBeInTheDocument();
    expect(screen.getByText('Nada coincide con «zapatos».')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Borrar búsqueda y filtros' }));
    expect(search).toHaveValue('');
  });

  it('writes large counts with the Spanish grouping', () => {
    inLanguage(spanish, <Viewer map={mallMap(upstairs(12_340))} />);
    expect(screen.getByText('12.345 lugares')).toBeInTheDocument();
  });

  it('shows a location’s details in Spanish', async () => {
    const user = userEvent.setup();
    inLanguage(spanish, <Viewer map={mallMap()} />);
    await user.click(within(directoryList('Lugares')).getByRole('button', { name: /Sakura Sushi/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Sakura Sushi' });
    expect(within(dialog).getByRole('button', { name: 'Cerrar' })).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'sakura.example (se abre en una pestaña nueva)' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Horario: 11:30–22:00');
  });

  it('says how to zoom an embedded map in Spanish', async () => {
    inLanguage(spanish, <Viewer map={mallMap()} cooperative />);
    await import('../../client/src/components/map/gestures');
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.getByText('Usa Ctrl + desplazamiento para acercar o alejar el mapa')).toBeInTheDocument();
  });

  it('names a cluster in Spanish', () => {
    expect(clusterLabel(25_000, spanish.t)).toBe('25.000 lugares, acercar');
    expect(clusterLabel(1, spanish.t)).toBe('1 lugar, acercar');
  });

  it('titles the clusters of the server’s static map in Spanish', () => {
    const items: MarkerItem[] = Array.from({ length: 200 }, (_, i) => ({ id: `p${i}`, x: i, y: i, type: 'pin', color: '#2563eb', text: '', image: null }));
    setStaticClusterer(() => ({ clusters: [{ x: 10, y: 10, count: 12_345 }], points: [] }));
    try {
      expect(staticMarkup(items, 1000, 1000, 1, '#4f46e5', spanish)).toContain('title="12.345 lugares">12,3\u00a0mil</span>');
    } finally {
      setStaticClusterer(null);
    }
  });
});

describe('the viewer in Arabic', () => {
  it('names its controls and the directory in Arabic', async () => {
    const user = userEvent.setup();
    inLanguage(arabic, <Viewer map={mallMap()} />);
    expect(screen.getByRole('button', { name: 'تكبير' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'تصغير' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'إعادة ضبط العرض' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'مشاركة' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'خريطة: Riverside Mall، Planta baja' })).toBeInTheDocument();
    // 5 takes Arabic's "few" form.
    expect(screen.getByText(`${arabic.n(5)} أماكن`)).toBeInTheDocument();
    const search = screen.getByRole('searchbox', { name: 'ابحث عن الأماكن' });
    await user.type(search, 'sushi');
    expect(screen.getByText(`${arabic.n(1)} من أصل ${arabic.n(5)} أماكن`)).toBeInTheDocument();
    expect(within(directoryList('الأماكن')).getByRole('button', { name: /Sakura Sushi/ })).toBeInTheDocument();
  });

  it('names a cluster in Arabic', () => {
    expect(clusterLabel(2, arabic.t)).toBe('مكانان، تكبير');
    expect(clusterLabel(1234, arabic.t)).toBe(`${arabic.n(1234)} مكانًا، تكبير`);
    expect(clusterLabel(25_000, arabic.t)).toBe(`${arabic.n(25_000)} مكان، تكبير`);
  });
});
