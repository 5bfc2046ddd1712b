/**
 * The editor's settings panel, used as a person uses it (by role and label) inside a stand-in
 * for the editor: the exact edits it gives (always the whole settings, accepted by the
 * `Settings` schema), each valid against its document, and values the schema refuses (a
 * minimum zoom above the maximum, a size of 0, a bad colour) shown in place without any edit.
 */
import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { Settings, type MapDocument } from '../../events/map-document';
import { SettingsPanel } from '../../client/src/features/editor/panels/settings-panel';
import { documentWith, expectValidEdits, renderPanel, type PanelCall } from './support/panel-harness';

function renderSettings(document: MapDocument = documentWith(), onUseCurrentView?: () => { x: number; y: number; zoom: number } | null) {
  return renderPanel((doc, onEdit) => (onUseCurrentView ? <SettingsPanel document={doc} onEdit={onEdit} onUseCurrentView={onUseCurrentView} /> : <SettingsPanel document={doc} onEdit={onEdit} />), document);
}

/** The settings each SettingsChanged gave: always a whole object the schema accepts. */
function givenSettings(calls: readonly PanelCall[]) {
  return calls.flatMap((call) =>
    call.edits.map((edit) => {
      if (edit.type !== 'SettingsChanged') throw new Error(`not a SettingsChanged: ${edit.type}`);
      expect(Settings.safeParse(edit.settings).success).toBe(true);
      return edit.settings;
    }),
  );
}

describe('the settings panel', () => {
  it('changes the map size as coalesced edits of the whole settings', async () => {
    const user = userEvent.setup();
    const before = documentWith();
    const { calls, document } = renderSettings(before);
    const width = screen.getByRole('spinbutton', { name: 'Width' });
    expect(width).toHaveValue(1200);
    await user.clear(width);
    expect(screen.getByText('Width must be a number.')).toBeInTheDocument();
    await user.type(width, '1600');
    expect(givenSettings(calls).map((settings) => settings.size.width)).toEqual([1, 16, 160, 1600]);
    expect(calls.at(-1)!.edits).toEqual([{ type: 'SettingsChanged', settings: { ...before.settings, size: { width: 1600, height: 800 } } }]);
    expect(calls.every((call) => call.options?.coalesce === 'settings:width')).toBe(true);

    const height = screen.getByRole('spinbutton', { name: 'Height' });
    await user.clear(height);
    await user.type(height, '900');
    expect(document().settings.size).toEqual({ width: 1600, height: 900 });
    expect(calls.at(-1)!.options).toEqual({ coalesce: 'settings:height' });
    expectValidEdits(calls);
  });

  it('refuses a size of 0 saying so in words, keeping the draft', async () => {
    const user = userEvent.setup();
    const { calls, document } = renderSettings();
    const height = screen.getByRole('spinbutton', { name: 'Height' });
    await user.clear(height);
    await user.type(height, '0');
    expect(height).toHaveValue(0);
    expect(height).toHaveAttribute('aria-invalid', 'true');
    expect(height).toHaveAccessibleDescription('Height must be more than 0.');
    expect(calls).toEqual([]);
    expect(document().settings.size.height).toBe(800);
  });

  it('changes the zoom range, refusing a minimum above the maximum with no edit', async () => {
    const user = userEvent.setup();
    const { calls, document } = renderSettings();
    const min = screen.getByRole('spinbutton', { name: 'Minimum zoom' });
    const max = screen.getByRole('spinbutton', { name: 'Maximum zoom' });
    await user.clear(max);
    await user.type(max, '12');
    expect(document().settings.maxZoom).toBe(12);
    expect(calls.at(-1)!.options).toEqual({ coalesce: 'settings:maxZoom' });

    const before = calls.length;
    await user.clear(min);
    await user.type(min, '20');
    expect(screen.getByText('Minimum zoom can be at most the maximum zoom.')).toBeInTheDocument();
    expect(min).toHaveValue(20);
    expect(min).toHaveAccessibleDescription('Minimum zoom can be at most the maximum zoom.');
    // "2" was a good minimum; "20" was not given.
    expect(givenSettings(calls.slice(before)).map((settings) => settings.minZoom)).toEqual([2]);
    expect(calls.slice(before).every((call) => call.options?.coalesce === 'settings:minZoom')).toBe(true);
    expect(document().settings.minZoom).toBe(2);

    // A maximum under the minimum is refused as well.
    const count = calls.length;
    await user.clear(max);
    await user.type(max, '1');
    expect(within(max.closest('.ep-field')!).getByText('Minimum zoom can be at most the maximum zoom.')).toBeInTheDocument();
    expect(calls).toHaveLength(count);
    expect(document().settings.maxZoom).toBe(12);

    // Beyond the schema's range: said in words, naming the field (zod's "Too big: expected number to be <=64" reached the editor).
    await user.clear(max);
    await user.type(max, '100');
    expect(within(max.closest('.ep-field')!).getByText('Maximum zoom can be at most 64.')).toBeInTheDocument();
    expect(document().settings.maxZoom).toBe(10);
    expectValidEdits(calls);
  });

  it('opens the map at the current view (within the zoom range) and resets it to fit', async () => {
    const user = userEvent.setup();
    const view = vi.fn(() => ({ x: 300.4, y: 200, zoom: 20 }));
    const before = documentWith();
    const { calls, edits, document } = renderSettings(before, view);
    expect(screen.getByText('Fits the whole floor')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reset to fit' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Use the current view' }));
    expect(view).toHaveBeenCalledOnce();
    // Zoom 20 is beyond the maximum of 8: the view opens at 8.
    expect(edits()).toEqual([[{ type: 'SettingsChanged', settings: { ...before.settings, initialView: { x: 300.4, y: 200, zoom: 8 } } }]]);
    expect(screen.getByText('Centre 300, 200 at zoom 8×')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Reset to fit' }));
    expect(edits()[1]).toEqual([{ type: 'SettingsChanged', settings: { ...before.settings, initialView: null } }]);
    expect(document().settings.initialView).toBeNull();
    expect(screen.getByRole('button', { name: 'Reset to fit' })).toBeDisabled();
    expectValidEdits(calls);
  });

  it('says so when the canvas has no view to use, and offers no such button without a canvas', async () => {
    const user = userEvent.setup();
    const { calls, unmount } = renderSettings(documentWith(), () => null);
    await user.click(screen.getByRole('button', { name: 'Use the current view' }));
    expect(screen.getByRole('status')).toHaveTextContent('The canvas has no view to use yet.');
    expect(calls).toEqual([]);
    unmount();
    renderSettings();
    expect(screen.queryByRole('button', { name: 'Use the current view' })).not.toBeInTheDocument();
  });

  it('switches the theme and its colours', async () => {
    const user = userEvent.setup();
    const before = documentWith();
    const { calls, edits, document } = renderSettings(before);
    expect(screen.getByRole('radiogroup', { name: 'Appearance' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Light' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(edits()).toEqual([[{ type: 'SettingsChanged', settings: { ...before.settings, theme: { ...before.settings.theme, mode: 'dark' } } }]]);

    fireEvent.change(screen.getByLabelText('Accent colour'), { target: { value: '#db2777' } });
    expect(document().settings.theme).toEqual({ mode: 'dark', accent: '#db2777', background: '#f8fafc' });
    expect(calls.at(-1)!.options).toEqual({ coalesce: 'settings:accent' });
    expect(screen.getByRole('textbox', { name: 'Accent colour, hex code' })).toHaveValue('#db2777');

    const background = screen.getByRole('textbox', { name: 'Background, hex code' });
    await user.clear(background);
    await user.type(background, '#0F172A');
    expect(document().settings.theme.background).toBe('#0f172a');
    expect(calls.at(-1)!.options).toEqual({ coalesce: 'settings:background' });
    expectValidEdits(calls);
  });

  it('shows the schema’s message for a bad accent colour and gives no edit', async () => {
    const user = userEvent.setup();
    const { calls, document } = renderSettings();
    const accent = screen.getByRole('textbox', { name: 'Accent colour, hex code' });
    await user.clear(accent);
    await user.type(accent, '#12345{Enter}');
    expect(screen.getByText('Accent colour must be a colour like #4f46e5')).toBeInTheDocument();
    expect(accent).toHaveValue('#12345');
    expect(accent).toHaveAccessibleDescription('Accent colour must be a colour like #4f46e5');
    expect(calls).toEqual([]);
    expect(document().settings.theme.accent).toBe('#4f46e5');

    // Escape puts the colour back.
    await user.keyboard('{Escape}');
    expect(accent).toHaveValue('#4f46e5');
    expect(screen.queryByText(/must be a colour like/)).not.toBeInTheDocument();
  });

  it('turns each viewer feature on and off with a labelled switch', async () => {
    const user = userEvent.setup();
    const before = documentWith();
    const { calls, edits, document } = renderSettings(before);
    const names = ['Directory', 'Search', 'Group filters and legend', 'Minimap', 'Zoom buttons', 'Full screen button', 'Links to locations'];
    expect(screen.getAllByRole('switch')).toHaveLength(7);
    for (const name of names) expect(screen.getByRole('switch', { name })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Minimap' })).toHaveAccessibleDescription('A small overview of a drawn floor while zoomed in (a street-map floor has none: it pans like any web map).');

    await user.click(screen.getByRole('switch', { name: 'Minimap' }));
    expect(edits()).toEqual([[{ type: 'SettingsChanged', settings: { ...before.settings, features: { ...before.settings.features, minimap: true } } }]]);
    await user.click(screen.getByRole('switch', { name: 'Search' }));
    await user.click(screen.getByRole('switch', { name: 'Directory' }));
    screen.getByRole('switch', { name: 'Links to locations' }).focus();
    await user.keyboard(' ');
    expect(document().settings.features).toEqual({ sidebar: false, search: false, filters: true, minimap: true, zoomButtons: true, fullscreen: true, deepLinks: false });
    expect(screen.getByRole('switch', { name: 'Search' })).not.toBeChecked();
    expectValidEdits(calls);
  });

  it('changes the region fills with RegionStylesChanged, refusing a bad code', async () => {
    const user = userEvent.setup();
    const before = documentWith();
    const { calls, edits } = renderSettings(before);
    fireEvent.change(screen.getByLabelText('Fill on hover'), { target: { value: '#123456' } });
    expect(edits()).toEqual([[{ type: 'RegionStylesChanged', regions: { ...before.styles.regions, hover: '#123456' } }]]);
    expect(calls[0]!.options).toEqual({ coalesce: 'styles:regions:hover' });

    const active = screen.getByRole('textbox', { name: 'Fill when selected, hex code' });
    await user.clear(active);
    await user.type(active, 'indigo');
    await user.tab();
    expect(screen.getByText('Fill when selected must be a colour like #4f46e5')).toBeInTheDocument();
    expect(calls).toHaveLength(1);

    await user.clear(active);
    await user.type(active, '#6366f1');
    expect(edits()[1]).toEqual([{ type: 'RegionStylesChanged', regions: { base: '#e2e8f0', hover: '#123456', active: '#6366f1' } }]);
    expectValidEdits(calls);
  });

  it('sets the viewer’s language: automatic or one language named in its own words, as a SettingsChanged', async () => {
    const user = userEvent.setup();
    const before = documentWith();
    const { calls, document, collaborator } = renderSettings(before);
    const language = screen.getByRole('combobox', { name: 'Viewer language' });
    expect(language).toHaveValue('auto');
    expect(language).toHaveAccessibleDescription(/the map’s own text \(titles, descriptions\) is not translated/);
    expect(within(language).getAllByRole('option').map((option) => [option.getAttribute('value'), option.textContent])).toEqual([
      ['auto', 'Automatic (visitor’s browser)'],
      ['en', 'English'],
      ['es', 'Español'],
      ['fr', 'Français'],
      ['de', 'Deutsch'],
      ['pt', 'Português'],
      ['it', 'Italiano'],
      ['nl', 'Nederlands'],
      ['pl', 'Polski'],
      ['ja', '日本語'],
      ['zh', '简体中文'],
      ['ar', 'العربية'],
    ]);
    // Each language's name is marked as being in that language (read out in its own voice).
    expect(within(language).getByRole('option', { name: 'Deutsch' })).toHaveAttribute('lang', 'de');

    await user.selectOptions(language, 'Français');
    expect(calls.at(-1)!.edits).toEqual([{ type: 'SettingsChanged', settings: { ...before.settings, language: 'fr' } }]);
    expect(document().settings.language).toBe('fr');
    expect(language).toHaveValue('fr');
    await user.selectOptions(language, 'auto');
    expect(givenSettings(calls).map((settings) => settings.language)).toEqual(['fr', 'auto']);
    expectValidEdits(calls);

    collaborator({ type: 'SettingsChanged', settings: { ...document().settings, language: 'ar' } });
    expect(language).toHaveValue('ar');
  });

  it("shows a collaborator's settings in fields not being edited, and keeps a draft being typed", async () => {
    const user = userEvent.setup();
    const before = documentWith();
    const { collaborator } = renderSettings(before);
    const width = screen.getByRole('spinbutton', { name: 'Width' });
    await user.click(width);
    await user.type(width, '5');
    collaborator({ type: 'SettingsChanged', settings: { ...before.settings, maxZoom: 16, size: { width: 640, height: 480 }, theme: { ...before.settings.theme, accent: '#059669' } } });
    expect(screen.getByRole('spinbutton', { name: 'Maximum zoom' })).toHaveValue(16);
    expect(screen.getByRole('spinbutton', { name: 'Height' })).toHaveValue(480);
    expect(screen.getByRole('textbox', { name: 'Accent colour, hex code' })).toHaveValue('#059669');
    // The width being typed stays as typed.
    expect(width).toHaveValue(12005);
  });
});
