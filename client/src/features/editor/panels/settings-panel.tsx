/**
 * The map's settings: its size (for floors without a drawing), the zoom range and the view it
 * opens at, its theme, which parts of the viewer are on, and the fills of the drawing's
 * regions, the language of the viewer's own words and the venue's address (for IMDF). Every change is checked with the document's own schemas (events/map-document.ts
 * `Settings`, with its minZoom <= maxZoom rule, and `RegionStyles`) before it is given as an
 * edit, always the whole settings object; a refused value stays in its field with the reason.
 */
import { useId, useState } from 'react';
import { issueMessage } from '../../../../../events/issue-message';
import { LOCALE_NAMES, VIEWER_LOCALES, type ViewerLanguage } from '../../../../../events/locales';
import { RegionStyles, Settings, type MapDocument, type Settings as SettingsType } from '../../../../../events/map-document';
import { checkedOnEdit } from './checked-edits';
import type { EditorPanelProps } from './panel-props';
import { ColorRow, NumberField } from './settings-fields';
import { VenueAddressForm } from './venue-address-form';
import { WebhooksSection } from '../../../components/webhooks/webhooks-section';
import './panels.css';

export interface SettingsPanelProps extends EditorPanelProps {
  /** The view the editor shows now, to open the map at (null when there is none). */
  onUseCurrentView?(): { x: number; y: number; zoom: number } | null;
  /** The map's id, for its webhooks (absent: no Webhooks section). */
  mapId?: string;
}

type FeatureKey = keyof SettingsType['features'];

const FEATURES: ReadonlyArray<{ key: FeatureKey; label: string; hint: string }> = [
  { key: 'sidebar', label: 'Directory', hint: 'A list of every location beside the map.' },
  { key: 'search', label: 'Search', hint: 'Find locations by name.' },
  { key: 'filters', label: 'Group filters and legend', hint: 'Show one category at a time.' },
  { key: 'minimap', label: 'Minimap', hint: 'A small overview of a drawn floor while zoomed in (a street-map floor has none: it pans like any web map).' },
  { key: 'zoomButtons', label: 'Zoom buttons', hint: 'Plus, minus and reset.' },
  { key: 'fullscreen', label: 'Full screen button', hint: 'Fill the screen with the map.' },
  { key: 'deepLinks', label: 'Links to locations', hint: 'The address names the open location, for sharing.' },
];

type RegionKey = keyof MapDocument['styles']['regions'];

const REGIONS: ReadonlyArray<{ key: RegionKey; label: string }> = [
  { key: 'base', label: 'Fill' },
  { key: 'hover', label: 'Fill on hover' },
  { key: 'active', label: 'Fill when selected' },
];

/** The viewer's languages as the setting offers them: the visitor's browser, then each in its own name. */
const LANGUAGE_OPTIONS: ReadonlyArray<{ value: ViewerLanguage; label: string }> = [
  { value: 'auto', label: 'Automatic (visitor’s browser)' },
  ...VIEWER_LOCALES.map((locale) => ({ value: locale, label: LOCALE_NAMES[locale] })),
];

const formatZoom = (zoom: number) => `${Math.round(zoom * 100) / 100}×`;

export function SettingsPanel({ document, onEdit, onUseCurrentView, mapId }: SettingsPanelProps) {
  const edit = checkedOnEdit(document, onEdit);
  const ids = useId();
  const [viewNote, setViewNote] = useState('');
  const settings = document.settings;
  const regions = document.styles.regions;
  const view = settings.initialView;

  /** Gives the whole settings with one change, when the schema accepts them; answers its message otherwise. */
  const change = (next: SettingsType, coalesce?: string): string | null => {
    const parsed = Settings.safeParse(next);
    if (!parsed.success) return parsed.error.issues[0] ? issueMessage(parsed.error.issues[0]) : 'This value is not valid.';
    return edit([{ type: 'SettingsChanged', settings: parsed.data }], coalesce ? { coalesce } : undefined);
  };

  const setRegion = (key: RegionKey, value: string) => {
    const parsed = RegionStyles.safeParse({ ...regions, [key]: value });
    if (parsed.success) edit([{ type: 'RegionStylesChanged', regions: parsed.data }], { coalesce: `styles:regions:${key}` });
  };

  const takeCurrentView = () => {
    const current = onUseCurrentView?.();
    if (!current) {
      setViewNote('The canvas has no view to use yet.');
      return;
    }
    // The view opens within the zoom range.
    const zoom = Math.min(settings.maxZoom, Math.max(settings.minZoom, current.zoom));
    const problem = change({ ...settings, initialView: { x: current.x, y: current.y, zoom } });
    setViewNote(problem ? `This view cannot be used: ${problem}` : '');
  };

  return (
    <div className="ep-panel">
      <section className="ep-section" aria-labelledby={`${ids}-view`}>
        <h3 id={`${ids}-view`} className="ep-section__title">
          View
        </h3>
        <div className="ep-grid">
          <NumberField label="Minimum zoom" value={settings.minZoom} step={0.5} min={0.1} max={64} onValue={(minZoom) => change({ ...settings, minZoom }, 'settings:minZoom')} />
          <NumberField label="Maximum zoom" value={settings.maxZoom} step={0.5} min={0.1} max={64} onValue={(maxZoom) => change({ ...settings, maxZoom }, 'settings:maxZoom')} />
        </div>
        <p className="ep-hint">Zoom 1 fits the whole floor; 4 is four times closer.</p>
        <div className="ep-field">
          <span className="ep-label" id={`${ids}-opens`}>
            Initial view
          </span>
          <p className="ep-value">
            {view ? `Centre ${Math.round(view.x)}, ${Math.round(view.y)} at zoom ${formatZoom(view.zoom)}` : 'Fits the whole floor'}
          </p>
          <div className="ep-button-row">
            {onUseCurrentView ? (
              <button type="button" className="ep-button" onClick={takeCurrentView}>
                Use the current view
              </button>
            ) : null}
            <button
              type="button"
              className="ep-button"
              disabled={!view}
              onClick={() => {
                setViewNote('');
                change({ ...settings, initialView: null });
              }}
            >
              Reset to fit
            </button>
          </div>
          <p className="ep-error ep-status" role="status">
            {viewNote}
          </p>
        </div>
      </section>

      <section className="ep-section" aria-labelledby={`${ids}-size`}>
        <h3 id={`${ids}-size`} className="ep-section__title">
          Map size
        </h3>
        <div className="ep-grid">
          <NumberField label="Width" value={settings.size.width} min={1} max={100_000} onValue={(width) => change({ ...settings, size: { ...settings.size, width } }, 'settings:width')} />
          <NumberField label="Height" value={settings.size.height} min={1} max={100_000} onValue={(height) => change({ ...settings, size: { ...settings.size, height } }, 'settings:height')} />
        </div>
        <p className="ep-hint">Used by floors without a drawing, in map units.</p>
      </section>

      <section className="ep-section" aria-labelledby={`${ids}-theme`}>
        <h3 id={`${ids}-theme`} className="ep-section__title">
          Theme
        </h3>
        <div className="ep-field ep-field--inline">
          <span className="ep-label" id={`${ids}-mode`}>
            Appearance
          </span>
          <div className="ep-segmented" role="radiogroup" aria-labelledby={`${ids}-mode`}>
            {(['light', 'dark'] as const).map((mode) => (
              <label key={mode} className="ep-segmented__option">
                <input type="radio" name={`${ids}-mode`} value={mode} checked={settings.theme.mode === mode} onChange={() => change({ ...settings, theme: { ...settings.theme, mode } })} />
                <span>{mode === 'light' ? 'Light' : 'Dark'}</span>
              </label>
            ))}
          </div>
        </div>
        <ColorRow label="Accent colour" value={settings.theme.accent} onColor={(accent) => change({ ...settings, theme: { ...settings.theme, accent } }, 'settings:accent')} />
        <ColorRow label="Background" value={settings.theme.background} onColor={(background) => change({ ...settings, theme: { ...settings.theme, background } }, 'settings:background')} />
      </section>

      <section className="ep-section" aria-labelledby={`${ids}-language`}>
        <h3 id={`${ids}-language`} className="ep-section__title">
          Language
        </h3>
        <div className="ep-field">
          <label htmlFor={`${ids}-language-select`}>Viewer language</label>
          <select
            id={`${ids}-language-select`}
            className="ep-input"
            value={settings.language}
            aria-describedby={`${ids}-language-hint`}
            onChange={(event) => change({ ...settings, language: event.target.value as ViewerLanguage })}
          >
            {LANGUAGE_OPTIONS.map((option) => (
              <option key={option.value} value={option.value} lang={option.value === 'auto' ? undefined : option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </div>
        <p id={`${ids}-language-hint`} className="ep-hint">
          The viewer’s buttons and labels; the map’s own text (titles, descriptions) is not translated.
        </p>
      </section>

      <section className="ep-section" aria-labelledby={`${ids}-address`}>
        <h3 id={`${ids}-address`} className="ep-section__title">
          Address
        </h3>
        <p className="ep-hint">Where the venue is. An IMDF export (Data panel) needs it to hand the map to Apple Maps.</p>
        <VenueAddressForm
          address={settings.address}
          onAddress={(address) => {
            const { address: _previous, ...rest } = settings;
            return change(address ? { ...rest, address } : rest);
          }}
        />
      </section>

      <section className="ep-section" aria-labelledby={`${ids}-regions`}>
        <h3 id={`${ids}-regions`} className="ep-section__title">
          Regions of the drawing
        </h3>
        {REGIONS.map((region) => (
          <ColorRow key={region.key} label={region.label} value={regions[region.key]} onColor={(value) => setRegion(region.key, value)} />
        ))}
      </section>

      <section className="ep-section" aria-labelledby={`${ids}-features`}>
        <h3 id={`${ids}-features`} className="ep-section__title">
          Viewer features
        </h3>
        <ul className="ep-switches">
          {FEATURES.map((feature) => (
            <li key={feature.key}>
              <label className="ep-switch">
                <span className="ep-switch__text">
                  <span id={`${ids}-feature-${feature.key}`}>{feature.label}</span>
                  <small id={`${ids}-feature-${feature.key}-hint`}>{feature.hint}</small>
                </span>
                <input
                  type="checkbox"
                  role="switch"
                  aria-labelledby={`${ids}-feature-${feature.key}`}
                  aria-describedby={`${ids}-feature-${feature.key}-hint`}
                  checked={settings.features[feature.key]}
                  onChange={(event) => change({ ...settings, features: { ...settings.features, [feature.key]: event.target.checked } })}
                />
              </label>
            </li>
          ))}
        </ul>
      </section>

      {mapId ? (
        <section className="ep-section" aria-labelledby={`${ids}-webhooks`}>
          <h3 id={`${ids}-webhooks`} className="ep-section__title">
            Webhooks
          </h3>
          <p className="ep-hint">Tell another system when this map is published or changes: Mapfold POSTs each event, signed, to your address.</p>
          <WebhooksSection mapId={mapId} headingId={`${ids}-webhooks`} />
        </section>
      ) : null}
    </div>
  );
}
