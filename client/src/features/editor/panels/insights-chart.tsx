/**
 * Views per day as bars, drawn by uPlot (a small canvas chart library, loaded with this
 * module when the Insights panel first shows a chart). The canvas is hidden from screen
 * readers: the panel puts the same numbers in a table beside it. It follows its box's width
 * (a ResizeObserver), so it fits the panel at 1280 px and the bottom sheet at 375.
 */
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface InsightsChartProps {
  days: ReadonlyArray<{ day: string; views: number }>;
}

const HEIGHT = 160;
const shortDay = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const whole = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });

/** A CSS custom property of the page (the product's palette), with a fallback. */
function cssColour(element: HTMLElement, name: string, fallback: string): string {
  return getComputedStyle(element).getPropertyValue(name).trim() || fallback;
}

export function InsightsChart({ days }: InsightsChartProps) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const xs = days.map((day) => Date.parse(`${day.day}T00:00:00Z`) / 1000);
    const ys = days.map((day) => day.views);
    const primary = cssColour(element, '--color-primary', '#4f46e5');
    const grid = cssColour(element, '--color-border', '#e2e8f0');
    const text = cssColour(element, '--color-subtle', '#64748b');
    const font = '11px system-ui, sans-serif';
    const width = () => Math.max(200, Math.floor(element.clientWidth));
    const plot = new uPlot(
      {
        width: width(),
        height: HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        select: { show: false, left: 0, top: 0, width: 0, height: 0 },
        padding: [8, 8, 0, 0],
        scales: {
          x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] },
          // Whole visits: from zero, never below a small top.
          y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.15))] },
        },
        axes: [
          {
            stroke: text,
            font,
            grid: { show: false },
            ticks: { stroke: grid, width: 1, size: 4 },
            space: 56,
            values: (_u, splits) => splits.map((split) => shortDay.format(new Date(split * 1000))),
          },
          {
            stroke: text,
            font,
            size: 40,
            grid: { stroke: grid, width: 1 },
            ticks: { show: false },
            // Only whole numbers of visits.
            splits: (_u, _axis, min, max) => {
              const step = Math.max(1, Math.ceil((max - min) / 4));
              const splits: number[] = [];
              for (let value = 0; value <= max; value += step) splits.push(value);
              return splits;
            },
            values: (_u, splits) => splits.map((split) => whole.format(split)),
          },
        ],
        series: [
          {},
          {
            label: 'Views',
            stroke: primary,
            fill: /^#[0-9a-f]{6}$/i.test(primary) ? `${primary}d9` : primary,
            width: 0,
            points: { show: false },
            paths: uPlot.paths.bars!({ size: [0.7, 28], gap: 1 }),
          },
        ],
      },
      [xs, ys],
      element,
    );
    const resize = typeof ResizeObserver === 'function' ? new ResizeObserver(() => plot.setSize({ width: width(), height: HEIGHT })) : null;
    resize?.observe(element);
    return () => {
      resize?.disconnect();
      plot.destroy();
    };
  }, [days]);

  return <div ref={box} className="ep-insights__chart" aria-hidden="true" data-testid="insights-chart" />;
}
