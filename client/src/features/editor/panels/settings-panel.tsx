/**
 * The map's settings: its size (for floors without a drawing), the zoom range and the view it
 * opens at, its colours, which parts of the viewer are on, and the fills of the drawing's
 * regions. Every change is checked with the document's own schema (events/map-document.ts
 * `Settings`, `RegionStyles`) before it is given as an edit.
 */
import { useId } from 'react';
import { RegionStyles, Settings, type MapDocument, type Settings as SettingsType } from '../../../../../events/map-document';
import type { EditorPanelProps } from './panel-props';
import { useDraft } from './use-draft';
import './panels.css';

export interface SettingsPanelProps extends EditorPanelProps {
  /** The view the editor shows now, to open the map at (null when there is none). */
  onUseCurrentView?(): { x: number; y: number; zoom: number } | null;
}

const FEATURES: ReadonlyArray<{ key: keyof SettingsType['features']; label: string; hint: string }> = [
  { key: 'sidebar', label: 'Directory', hint: 'A list of every location beside the map.' },
  { key: 'search', label: 'Search', hint: 'Find locations by name, accents ignored.' },
  { key: 'filters', label: 'Group filters and legend', hint: 'Show one group at a time.' },
  { key: 'minimap', label: 'Minimap', hint: 'A small overview while zoomed in.' },
  { key: 'zoomButtons', label: 'Zoom buttons', hint: 'Plus, minus and reset.' },
  { key: 'fullscreen', label: 'Full screen button', hint: '' },
  { key: 'deepLinks', label: 'Links to locations', hint: 'The address names the open location, for sharing.' },
];

/** The first problem of a settings change, in words, or null with the edit given. */
function useSettingsEdit(document: MapDocument, onEdit: EditorPanelProps['onEdit']) {
  return (next: SettingsType, coalesce?: string): string | null => {
    const parsed = Settings.safeParse(next);
    if (!parsed.success) return parsed.error.issues[0]?.message ?? 'This value is not valid.';
    onEdit([{ type: 'SettingsChanged', settings: parsed.data }], coalesce ? { coalesce } : {});
    return null;
  };
}

function NumberField({ label, value, onValue, step = 1, hint }: { label: string; value: number; onValue: (value: number) => string | null; step?: number; hint?: string }) {
  const id = useId();
  const draft = useDraft(String(value), (text) => {
    const number = Number(text);
    if (text.trim() === '' || !Number.isFinite(number)) return `${label} must be a number.`;
    if (number === value) return null;
    return onValue(number);
  });
  return (
    <div className="ep-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="ep-input"
        type="number"
        inputMode="decimal"
        step={step}
        value={draft.value}
        aria-invalid={draft.error ? true : undefined}
        aria-describedby={draft.error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        onChange={draft.onChange}
        onFocus={draft.onFocus}
        onBlur={draft.onBlur}
      />
      {draft.error ? (
        <p id={`${id}-error`} className="ep-error">
          {draft.error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="ep-hint">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

function ColorField({ label, value, onValue }: { label: string; value: string; onValue: (value: string) => void }) {
  const id = useId();
  return (
    <div className="ep-field ep-field--color">
      <label htmlFor={id}>{label}</label>
      <span className="ep-color">
        <input id={id} type="color" className="ep-swatch" value={value} onChange={(event) => onValue(event.target.value.toLowerCase())} />
        <code>{value}</code>
      </span>
    </div>
  );
}

export function SettingsPanel({ document, onEdit, onUseCurrentView }: SettingsPanelProps) {
  const settings = document.settings;
  const change = useSettingsEdit(document, onEdit);
  const regions = document.styles.regions;
  const setRegion = (key: keyof typeof regions, value: string) => {
    const parsed = RegionStyles.safeParse({ ...regions, [key]: value });
    if (parsed.success) onEdit([{ type: 'RegionStylesChanged', regions: parsed.data }], { coalesce: `styles:${key}` });
  };
  const view = settings.initialView;

  return (
    <div className="ep-panel">
      <section className="ep-section" aria-labelledby="ep-settings-view">
        <h3 id="ep-settings-view" className="ep-section__title">
          View
        </h3>
        <div className="ep-grid">
          <NumberField label="Minimum zoom" value={settings.minZoom} step={0.5} onValue={(minZoom) => change({ ...settings, minZoom })} />
          <NumberField label="Maximum zoom" value={settings.maxZoom} step={0.5} onValue={(maxZoom) => change({ ...settings, maxZoom })} />
        </div>
        <p className="ep-hint">Zoom 1 shows the whole floor; 4 is four times closer.</p>
        <div className="ep-field">
          <span className="ep-label">Opens at</span>
          <p className="ep-value">{view ? `x ${Math.round(view.x)}, y ${Math.round(view.y)}, zoom ${view.zoom}` : 'The whole floor'}</p>
          <div className="ep-row__actions">
            {onUseCurrentView ? (
              <button
                type="button"
                className="ep-link-button"
                onClick={() => {
                  const current = onUseCurrentView();
                  if (current) change({ ...settings, initialView: { ...current, zoom: Math.min(settings.maxZoom, Math.max(settings.minZoom, current.zoom)) } });
                }}
              >
                Use the current view
              </button>
            ) : null}
            {view ? (
              <button type="button" className="ep-link-button" onClick={() => change({ ...settings, initialView: null })}>
                Show the whole floor
              </button>
            ) : null}
          </div>
        </div>
        <div className="ep-grid">
          <NumberField label="Width" value={settings.size.width} onValue={(width) => change({ ...settings, size: { ...settings.size, width } }, 'settings:width')} />
          <NumberField label="Height" value={settings.size.height} onValue={(height) => change({ ...settings, size: { ...settings.size, height } }, 'settings:height')} />
        </div>
        <p className="ep-hint">The size of floors without a drawing, in map units.</p>
      </section>

      <section className="ep-section" aria-labelledby="ep-settings-look">
        <h3 id="ep-settings-look" className="ep-section__title">
          Look
        </h3>
        <div className="ep-field">
          <span className="ep-label" id="ep-theme-label">
            Theme
          </span>
          <div className="ep-segmented" role="radiogroup" aria-labelledby="ep-theme-label">
            {(['light', 'dark'] as const).map((mode) => (
              <label key={mode} className="ep-segmented__option">
                <input type="radio" name="ep-theme" checked={settings.theme.mode === mode} onChange={() => change({ ...settings, theme: { ...settings.theme, mode } })} />
                <span>{mode === 'light' ? 'Light' : 'Dark'}</span>
              </label>
            ))}
          </div>
        </div>
        <ColorField label="Accent colour" value={settings.theme.accent} onValue={(accent) => change({ ...settings, theme: { ...settings.theme, accent } }, 'settings:accent')} />
        <ColorField label="Background" value={settings.theme.background} onValue={(background) => change({ ...settings, theme: { ...settings.theme, background } }, 'settings:background')} />
      </section>

      <section className="ep-section" aria-labelledby="ep-settings-regions">
        <h3 id="ep-settings-regions" className="ep-section__title">
          Regions of the drawing
        </h3>
        <ColorField label="Fill" value={regions.base} onValue={(value) => setRegion('base', value)} />
        <ColorField label="Fill on hover" value={regions.hover} onValue={(value) => setRegion('hover', value)} />
        <ColorField label="Fill when selected" value={regions.active} onValue={(value) => setRegion('active', value)} />
      </section>

      <section className="ep-section" aria-labelledby="ep-settings-features">
        <h3 id="ep-settings-features" className="ep-section__title">
          Viewer features
        </h3>
        <ul className="ep-switches">
          {FEATURES.map((feature) => (
            <li key={feature.key}>
              <label className="ep-switch">
                <input
                  type="checkbox"
                  role="switch"
                  checked={settings.features[feature.key]}
                  onChange={(event) => change({ ...settings, features: { ...settings.features, [feature.key]: event.target.checked } })}
                />
                <span className="ep-switch__text">
                  <span>{feature.label}</span>
                  {feature.hint ? <small>{feature.hint}</small> : null}
                </span>
              </label>
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
