/**
 * Insights (issue 19, part 4): what visitors of the published map did, for its owner and
 * editors. Views per day as a chart (uPlot, loaded with the chart, insights-chart.tsx) with the
 * same numbers in a table for screen readers; the locations opened most, where directions were
 * asked to, the searches made most and those that found nothing (what visitors look for and
 * the map lacks); the last 7, 30 or 90 days; the same as CSV (fetched with the app's
 * authentication, a bearer token in Clerk mode, which a plain link would not carry, and saved
 * from a Blob).
 */
import { Component, lazy, Suspense, useCallback, useEffect, useId, useState, type CSSProperties, type ReactNode } from 'react';
import { addDays, dayOf, InsightsReport } from '../../../../../events/insights';
import { SegmentedToggle } from '../../../components/ui/segmented-toggle';
import { api as defaultApi, toApiError, type ApiClient } from '../../../lib/api';
import { saveBlob } from '../../../utils/save-blob';
import './panels.css';
import './insights.css';

const InsightsChart = lazy(() => import('./insights-chart').then((module) => ({ default: module.InsightsChart })));

/**
 * A chart that cannot draw (its code did not load, no canvas) leaves its place empty: the
 * table beside it holds the same numbers, so the panel goes on without it.
 */
class ChartBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override render() {
    return this.state.failed ? null : this.props.children;
  }
}

const RANGES = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
] as const;
type Range = (typeof RANGES)[number]['value'];

export interface InsightsPanelProps {
  mapId: string;
  /** Whether the map is published: a test map is not counted, and the panel says so. */
  published: boolean;
  api?: Pick<ApiClient, 'get' | 'download'>;
  /** Says something briefly (the editor's toast): why the CSV could not be downloaded. */
  onToast?: (message: string) => void;
  /** Today (UTC); tests fix it. */
  today?: () => Date;
}

type Loaded = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; report: InsightsReport };

const number = new Intl.NumberFormat('en');
const dayLabel = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', timeZone: 'UTC' });
export const formatDay = (day: string) => dayLabel.format(new Date(`${day}T00:00:00Z`));

export function InsightsPanel({ mapId, published, api = defaultApi, onToast, today = () => new Date() }: InsightsPanelProps) {
  const ids = useId();
  const [range, setRange] = useState<Range>('30');
  const [attempt, setAttempt] = useState(0);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
  const to = dayOf(today());
  const from = addDays(to, -(Number(range) - 1));
  const base = `/api/maps/${encodeURIComponent(mapId)}/insights?from=${from}&to=${to}`;

  useEffect(() => {
    const controller = new AbortController();
    setLoaded({ status: 'loading' });
    api.get(base, InsightsReport, { signal: controller.signal }).then(
      ({ result }) => setLoaded({ status: 'ready', report: result }),
      (error: unknown) => {
        if (!controller.signal.aborted) setLoaded({ status: 'error', message: toApiError(error).message });
      },
    );
    return () => controller.abort();
  }, [api, base, attempt]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);

  const [downloading, setDownloading] = useState(false);
  const csvPath = `${base}&format=csv`;
  const downloadCsv = useCallback(() => {
    if (downloading) return;
    setDownloading(true);
    api.download(csvPath).then(
      ({ blob, fileName }) => saveBlob(fileName ?? `insights-${mapId}-${from}-to-${to}.csv`, blob),
      (error: unknown) => onToast?.(`The CSV could not be downloaded: ${toApiError(error).message}`),
    ).finally(() => setDownloading(false));
  }, [api, csvPath, downloading, mapId, from, to, onToast]);

  const report = loaded.status === 'ready' ? loaded.report : null;
  const empty = report !== null && report.totals.views === 0 && report.totals.searches === 0 && report.totals.opens === 0 && report.totals.directions === 0;

  return (
    <div className="ep-panel ep-insights" aria-busy={loaded.status === 'loading'}>
      <p className="ep-intro">What visitors of the published map did, counted without cookies or personal data. Days are UTC.</p>
      {!published ? (
        <p className="ep-note" role="note">
          This map is not published: visits are counted once it is.
        </p>
      ) : null}
      <div className="ep-insights__bar">
        <SegmentedToggle label="Period" hideLabel size="sm" options={RANGES} value={range} onChange={setRange} />
        <button type="button" className="ep-button" disabled={report === null} aria-busy={downloading} aria-disabled={downloading || undefined} onClick={downloadCsv}>
          {downloading ? <span className="ep-insights__spinner" aria-hidden="true" /> : null}
          Download CSV
        </button>
      </div>

      {loaded.status === 'loading' ? (
        <p className="ep-insights__status" role="status">
          <span className="ep-insights__spinner" aria-hidden="true" />
          Loading insights…
        </p>
      ) : loaded.status === 'error' ? (
        <div className="ep-insights__error" role="alert">
          <p className="ep-error">The insights could not be loaded: {loaded.message}</p>
          <button type="button" className="ep-button" onClick={retry}>
            Try again
          </button>
        </div>
      ) : empty ? (
        <div className="ep-empty ep-insights__empty">
          <p className="ep-insights__empty-title">No visits yet</p>
          <p>
            {`Nothing was counted from ${formatDay(from)} to ${formatDay(to)}. Visits, searches and opened locations appear here once people use the published map.`}
          </p>
        </div>
      ) : report ? (
        <>
          <dl className="ep-insights__totals">
            <div>
              <dt>Views</dt>
              <dd>{number.format(report.totals.views)}</dd>
            </div>
            <div>
              <dt>Searches</dt>
              <dd>{number.format(report.totals.searches)}</dd>
            </div>
            <div>
              <dt>Locations opened</dt>
              <dd>{number.format(report.totals.opens)}</dd>
            </div>
            <div>
              <dt>Directions</dt>
              <dd>{number.format(report.totals.directions)}</dd>
            </div>
          </dl>

          <section className="ep-section" aria-labelledby={`${ids}-views`}>
            <h3 id={`${ids}-views`} className="ep-section__title">
              Views per day
            </h3>
            <figure className="ep-insights__figure">
              <ChartBoundary>
                <Suspense fallback={<div className="ep-insights__chart ep-insights__chart--loading" aria-hidden="true" />}>
                  <InsightsChart days={report.days} />
                </Suspense>
              </ChartBoundary>
              <table className="visually-hidden">
                <caption>{`Views per day, ${formatDay(report.from)} to ${formatDay(report.to)}`}</caption>
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col">Views</th>
                  </tr>
                </thead>
                <tbody>
                  {report.days.map((day) => (
                    <tr key={day.day}>
                      <th scope="row">{formatDay(day.day)}</th>
                      <td>{day.views}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </figure>
          </section>

          <TopList id={`${ids}-locations`} title="Top locations" empty="No location was opened." rows={report.topLocations.map((row) => ({ key: row.id, label: row.title, count: row.count }))} unit="opens" />
          {report.topDirections.length > 0 ? (
            <TopList id={`${ids}-directions`} title="Directions asked to" empty="" rows={report.topDirections.map((row) => ({ key: row.id, label: row.title, count: row.count }))} unit="routes" />
          ) : null}
          <TopList id={`${ids}-searches`} title="Top searches" empty="No searches." rows={report.topSearches.map((row) => ({ key: row.text, label: `“${row.text}”`, count: row.count }))} unit="searches" />
          <TopList
            id={`${ids}-missed`}
            title="Searches that found nothing"
            intro="What visitors looked for and the map does not have (yet)."
            empty="Every search found something."
            rows={report.searchesWithoutResults.map((row) => ({ key: row.text, label: `“${row.text}”`, count: row.count }))}
            unit="searches"
          />
        </>
      ) : null}
    </div>
  );
}

interface TopListProps {
  id: string;
  title: string;
  intro?: string;
  empty: string;
  rows: Array<{ key: string; label: string; count: number }>;
  unit: string;
}

/** A ranked list with a bar for each row's share of the first. */
function TopList({ id, title, intro, empty, rows, unit }: TopListProps) {
  const most = rows[0]?.count ?? 1;
  return (
    <section className="ep-section" aria-labelledby={id}>
      <h3 id={id} className="ep-section__title">
        {title}
      </h3>
      {intro ? <p className="ep-intro">{intro}</p> : null}
      {rows.length === 0 ? (
        <p className="ep-hint">{empty}</p>
      ) : (
        <ol className="ep-insights__top" aria-labelledby={id}>
          {rows.map((row) => (
            <li key={row.key} style={{ '--share': `${Math.max(4, (100 * row.count) / most)}%` } as CSSProperties}>
              <span className="ep-insights__label">{row.label}</span>
              <span className="ep-insights__count">
                {number.format(row.count)}
                <span className="visually-hidden">{` ${unit}`}</span>
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
