/** Shared look of the charts: colours per quantity, axis formatters, common option pieces. */
import uPlot from 'uplot';

export const COLORS = {
  model: '#1d4ed8',
  raw: 'rgba(29, 78, 216, 0.35)',
  first: '#6b7280',
  random: '#a8a29e',
  majority: '#d97706',
  weighted: '#7c3aed',
  oracle: '#15803d',
  macro: '#0891b2',
  correct: '#15803d',
  incorrect: '#b91c1c',
  lr: '#0f766e',
  grad: '#9333ea',
} as const;

const pctTick = (_u: uPlot, splits: number[]): string[] => splits.map((v) => `${Math.round(v * 100)}%`);

/** Tick text for values of any scale: 1e-4 would print as "0" with the default formatter. */
const smartTick = (_u: uPlot, splits: number[]): string[] => {
  const top = splits.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  return splits.map((v) => (v === 0 ? '0' : top < 1e-2 || top >= 1e5 ? v.toExponential(1) : String(Number(v.toPrecision(3)))));
};

/** Axes for an accuracy chart: share on y as percent. */
export function percentAxes(xLabel: string, xValues?: uPlot.Axis['values']): uPlot.Axis[] {
  return [
    { label: xLabel, labelSize: 18, size: 34, values: xValues },
    { values: pctTick, size: 50 },
  ];
}

export function plainAxes(xLabel: string): uPlot.Axis[] {
  return [
    { label: xLabel, labelSize: 18, size: 34 },
    { values: smartTick, size: 58 },
  ];
}

export const pctValue = (_u: uPlot, v: number | null): string => (v === null ? '—' : `${(v * 100).toFixed(1)}%`);

export function line(label: string, stroke: string, extra: Partial<uPlot.Series> = {}): uPlot.Series {
  return { label, stroke, width: 1.5, points: { show: false }, ...extra };
}

/** A dashed reference line (a baseline); uPlot shows its points while there are few, so one evaluation is visible too. */
export function reference(label: string, stroke: string, value: uPlot.Series['value'] = pctValue): uPlot.Series {
  return { label, stroke, width: 1, dash: [5, 4], points: { size: 4 }, value };
}

export const NUMERIC_X: uPlot.Scales = { x: { time: false } };

export const LEGEND: uPlot.Legend = { live: true };
