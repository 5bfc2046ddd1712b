/**
 * The share menu, the picture and the printed page in the visitor's language (issue 19 part 1):
 * the menu in Spanish and in Arabic (its labels, buttons, toasts and the picture's choices), a
 * picture's SVG made in Spanish with its legend's title in Spanish and `lang="es"` (parsed
 * strictly), an Arabic one laid out from the right, and the printed page's words and language.
 */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DOMParser, type Document as XmlDocument, type Element as XmlElement } from '@xmldom/xmldom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ar from 'virtual:viewer-messages/ar';
import es from 'virtual:viewer-messages/es';
import en from 'virtual:viewer-messages/en';
import { ShareMenu } from '../../client/src/features/viewer/share-menu';
import type { PictureSource } from '../../client/src/features/viewer/share-picture';
import { I18nProvider } from '../../client/src/i18n/i18n-context';
import { createTranslator, type Translator } from '../../client/src/i18n/translator';
import { buildScene } from '../../client/src/components/map/export/scene';
import { sceneSvg } from '../../client/src/components/map/export/scene-svg';
import { printSheet } from '../../client/src/components/map/export/print-sheet';
import type { Camera } from '../../client/src/components/map/camera';
import type { MapDocument } from '../../events/map-document';
import { demoMallDocument } from '../../server/seed/demo-mall';

const spanish = createTranslator('es', es);
const arabic = createTranslator('ar', ar);
const english = createTranslator('en', en);

afterEach(() => {
  vi.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'clipboard');
  Reflect.deleteProperty(HTMLImageElement.prototype, 'decode');
});

/** jsdom's images have no decode(): the printed page waits for its picture with it. */
function decodable() {
  Object.defineProperty(HTMLImageElement.prototype, 'decode', { value: () => Promise.resolve(), configurable: true });
}

function stubClipboard(works: boolean) {
  const writeText = vi.fn(async () => {
    if (!works) throw new DOMException('Write permission denied.', 'NotAllowedError');
  });
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
}

function demo() {
  const document = demoMallDocument() as MapDocument;
  const layer = document.layers.find((candidate) => candidate.id === 'ground')!;
  return { document, layer };
}

function menu(translator: Translator, onCopied = vi.fn()) {
  const { document, layer } = demo();
  const picture: PictureSource = { document, layer, camera: { view: { x: 0, y: 0, k: 1 }, width: 800, height: 600 } as unknown as Camera, selectedId: null, visibleIds: null, layerNames: null };
  render(
    <I18nProvider translator={translator}>
      <ShareMenu
        mapId="mall"
        title="Riverside Mall"
        publicUrl="https://maps.example.com"
        aspectRatio={1.5}
        onCopied={onCopied}
        onClose={() => undefined}
        route={{ from: 'g-info', to: 'g-pixel', stepFree: false }}
        picture={picture}
      />
    </I18nProvider>,
  );
  return onCopied;
}

function parseStrict(svg: string): XmlDocument {
  const problems: string[] = [];
  const xml = new DOMParser({ onError: (level, message) => void problems.push(`${level}: ${message}`) }).parseFromString(svg, 'image/svg+xml');
  expect(problems).toEqual([]);
  return xml;
}

const byId = (xml: XmlDocument, id: string) => (Array.from(xml.getElementsByTagName('*')) as XmlElement[]).find((element) => element.getAttribute('id') === id);

describe('the share menu in the visitor’s language', () => {
  it('speaks Spanish: its labels, buttons, the picture’s choices and the toasts', async () => {
    const user = userEvent.setup();
    const onCopied = menu(spanish);
    const dialog = screen.getByRole('dialog', { name: 'Compartir este mapa' });
    expect(within(dialog).getByRole('heading', { name: 'Compartir este mapa' })).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Enlace')).toHaveValue('https://maps.example.com/m/mall');
    expect((within(dialog).getByLabelText('Enlace a esta ruta') as HTMLInputElement).value).toContain('g-info');
    expect(within(dialog).getByLabelText('Insertar en tu sitio web')).toBeInTheDocument();
    expect(within(dialog).getByText('Pégalo en cualquier página; el mapa mantiene sus proporciones en cualquier ancho.')).toBeInTheDocument();
    expect(within(dialog).getByRole('region', { name: 'Imagen del mapa' })).toBeInTheDocument();
    expect(within(dialog).getByRole('radiogroup', { name: 'Qué incluir' })).toBeInTheDocument();
    expect(within(dialog).getByRole('radio', { name: 'Esta vista' })).toBeChecked();
    expect(within(dialog).getByRole('radio', { name: 'Toda la planta' })).not.toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Imprimir' })).toHaveAttribute('title', 'Imprimir el mapa');
    expect(within(dialog).getByRole('button', { name: 'PNG 2×' })).toHaveAttribute('title', 'Descargar una imagen PNG al doble de resolución');
    expect(dialog.textContent).not.toMatch(/Share|Copy|Link|Embed|Print|Whole floor|This view/);

    stubClipboard(true);
    await user.click(within(dialog).getAllByRole('button', { name: 'Copiar' })[0]!);
    expect(onCopied).toHaveBeenLastCalledWith('Enlace copiado en el portapapeles');
    await user.click(within(dialog).getByRole('button', { name: 'Copiar el enlace de la ruta' }));
    expect(onCopied).toHaveBeenLastCalledWith('Enlace de la ruta copiado en el portapapeles');
    stubClipboard(false);
    await user.click(within(dialog).getByRole('button', { name: 'Copiar código' }));
    expect(onCopied).toHaveBeenLastCalledWith('No se pudo copiar; selecciona el código de inserción y cópialo');
  });

  it('speaks Arabic', async () => {
    const user = userEvent.setup();
    const onCopied = menu(arabic);
    const dialog = screen.getByRole('dialog', { name: 'مشاركة هذه الخريطة' });
    expect(within(dialog).getByLabelText('الرابط')).toHaveValue('https://maps.example.com/m/mall');
    expect(within(dialog).getByRole('radio', { name: 'الطابق بأكمله' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'طباعة' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'نسخ الرمز' })).toBeInTheDocument();
    stubClipboard(true);
    await user.click(within(dialog).getByRole('button', { name: 'نسخ الرمز' }));
    expect(onCopied).toHaveBeenLastCalledWith('تم نسخ رمز التضمين إلى الحافظة');
  });

  it('keeps its English words outside a provider', () => {
    const { document, layer } = demo();
    render(<ShareMenu mapId="mall" title="Riverside Mall" publicUrl="https://maps.example.com" aspectRatio={1.5} onCopied={vi.fn()} onClose={() => undefined} picture={{ document, layer, camera: { view: { x: 0, y: 0, k: 1 }, width: 800, height: 600 } as unknown as Camera, selectedId: null, visibleIds: null, layerNames: null }} />);
    expect(screen.getByRole('dialog', { name: 'Share this map' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Whole floor' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Print' })).toBeInTheDocument();
  });
});

describe('the picture in the visitor’s language', () => {
  it('made in Spanish: its legend’s title in Spanish, lang="es", left to right', () => {
    const { document, layer } = demo();
    const scene = buildScene({ document, layer, title: 'Riverside Mall', extent: 'floor', translator: spanish });
    const xml = parseStrict(sceneSvg(scene, { floor: { kind: 'none' }, images: new Map() }));
    const root = xml.documentElement!;
    expect(root.getAttribute('lang')).toBe('es');
    expect(root.getAttributeNS('http://www.w3.org/XML/1998/namespace', 'lang')).toBe('es');
    expect(root.hasAttribute('direction')).toBe(false);
    const title = byId(xml, 'mfx-legend-title')!;
    expect(title.textContent).toBe('Leyenda');
    // First on its row, the entries after it.
    expect(Number(title.getAttribute('x'))).toBe(20);
    expect(scene.legend[0]!.x).toBeGreaterThan(20 + 40);
  });

  it('made in Arabic: right to left, the title band and the legend from the right', () => {
    const { document, layer } = demo();
    const scene = buildScene({ document, layer, title: 'Riverside Mall', extent: 'floor', translator: arabic });
    const xml = parseStrict(sceneSvg(scene, { floor: { kind: 'none' }, images: new Map() }));
    const root = xml.documentElement!;
    expect(root.getAttribute('lang')).toBe('ar');
    expect(root.getAttribute('direction')).toBe('rtl');
    const legendTitle = byId(xml, 'mfx-legend-title')!;
    expect(legendTitle.textContent).toBe('مفتاح الخريطة');
    expect(Number(legendTitle.getAttribute('x'))).toBe(scene.width - 20);
    const heading = byId(xml, 'mfx-title')!.getElementsByTagName('text')[0]!;
    expect(Number(heading.getAttribute('x'))).toBe(scene.width - 20);
    // Each entry's swatch right of its name.
    const legend = byId(xml, 'mfx-legend')!;
    const swatch = legend.getElementsByTagName('circle')[0]!;
    const name = Array.from(legend.getElementsByTagName('text')).find((text) => text.getAttribute('id') !== 'mfx-legend-title')!;
    expect(Number(swatch.getAttribute('cx'))).toBeGreaterThan(Number(name.getAttribute('x')));
  });

  it('has no words of its own without a translator (the legend’s entries alone)', () => {
    const { document, layer } = demo();
    const scene = buildScene({ document, layer, title: 'Riverside Mall', extent: 'floor' });
    const xml = parseStrict(sceneSvg(scene, { floor: { kind: 'none' }, images: new Map() }));
    expect(xml.documentElement!.hasAttribute('lang')).toBe(false);
    expect(byId(xml, 'mfx-legend-title')).toBeUndefined();
    expect(scene.legend[0]!.x).toBe(20);
  });

  it('prints a page in Spanish, its language and direction on it', async () => {
    const { document, layer } = demo();
    // The demo's floor file is not fetched here: the page is built on a plain sheet.
    const noFile = { ...layer, file: null };
    decodable();
    const sheet = await printSheet({ document, layer: noFile, title: 'Riverside Mall', extent: 'floor', selectedId: 'g-lumiere', link: 'https://maps.example.com/m/mall?location=g-lumiere', layerNames: null, translator: spanish });
    expect(sheet.lang).toBe('es');
    expect(sheet.dir).toBe('ltr');
    expect(sheet.querySelector('img')!.alt).toBe('Mapa de Riverside Mall');
    const headings = Array.from(sheet.querySelectorAll('h2')).map((h) => h.textContent);
    expect(headings).toContain('Leyenda');
    expect(sheet.querySelector('footer')!.textContent).toBe('Abre este mapa en línea: https://maps.example.com/m/mall?location=g-lumiere');
    const terms = Array.from(sheet.querySelectorAll('dt')).map((dt) => dt.textContent);
    expect(terms.length).toBeGreaterThan(0);
    for (const term of terms) expect(['Horario', 'Teléfono', 'Sitio web']).toContain(term);
    const arabicSheet = await printSheet({ document, layer: noFile, title: 'Riverside Mall', extent: 'floor', selectedId: null, link: 'https://maps.example.com/m/mall', layerNames: null, translator: arabic });
    expect(arabicSheet.dir).toBe('rtl');
    expect(arabicSheet.lang).toBe('ar');
  });

  it('prints English words in English', async () => {
    const { document, layer } = demo();
    decodable();
    const sheet = await printSheet({ document, layer: { ...layer, file: null }, title: 'Riverside Mall', extent: 'floor', selectedId: null, link: 'https://maps.example.com/m/mall', layerNames: null, translator: english });
    expect(sheet.querySelector('footer')!.textContent).toBe('Open this map online: https://maps.example.com/m/mall');
    expect(Array.from(sheet.querySelectorAll('h2')).map((h) => h.textContent)).toContain('Legend');
  });
});
