import uPlot from 'uplot';
import { useEngine } from '../../state/hooks.ts';
import { COLORS, LEGEND, NUMERIC_X, line, plainAxes } from './chartStyle.ts';
import { UPlotChart } from './UPlotChart.tsx';

const fmt = (digits: number) => (_u: uPlot, v: number | null) => (v === null ? '—' : v.toPrecision(digits));

/** Per-step training curves: loss (raw and smoothed), learning rate, gradient norm. */
export function LossChart() {
  const series = useEngine((s) => s.run.series);
  const version = useEngine((s) => s.run.seriesVersion);
  return (
    <UPlotChart
      title="Training loss per step"
      testId="chart-loss"
      points={series.step.length}
      data={[series.step, series.loss, series.smoothed]}
      version={version}
      isEmpty={series.step.length === 0}
      emptyText="Starts with training"
      makeOptions={() => ({
        scales: NUMERIC_X,
        legend: LEGEND,
        axes: plainAxes('step'),
        series: [
          { label: 'step' },
          line('raw', COLORS.raw, { width: 1, value: fmt(4) }),
          line('smoothed', COLORS.model, { width: 2, value: fmt(4) }),
        ],
      })}
    />
  );
}

export function LearningRateChart() {
  const series = useEngine((s) => s.run.series);
  const version = useEngine((s) => s.run.seriesVersion);
  return (
    <UPlotChart
      title="Learning rate"
      testId="chart-lr"
      points={series.step.length}
      data={[series.step, series.lr]}
      version={version}
      isEmpty={series.step.length === 0}
      emptyText="Starts with training"
      makeOptions={() => ({
        scales: NUMERIC_X,
        legend: LEGEND,
        axes: plainAxes('step'),
        series: [{ label: 'step' }, line('lr', COLORS.lr, { value: fmt(3) })],
      })}
    />
  );
}

export function GradNormChart() {
  const series = useEngine((s) => s.run.series);
  const version = useEngine((s) => s.run.seriesVersion);
  return (
    <UPlotChart
      title="Gradient norm (before clipping)"
      testId="chart-grad"
      points={series.step.length}
      data={[series.step, series.gradNorm]}
      version={version}
      isEmpty={series.step.length === 0}
      emptyText="Starts with training"
      makeOptions={() => ({
        scales: NUMERIC_X,
        legend: LEGEND,
        axes: plainAxes('step'),
        series: [{ label: 'step' }, line('grad norm', COLORS.grad, { value: fmt(3) })],
      })}
    />
  );
}
