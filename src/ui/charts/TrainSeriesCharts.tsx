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

/** One per-step quantity against the step: the learning rate and the gradient norm share this shape. */
function StepSeriesChart(props: { title: string; testId: string; label: string; color: string; pick: 'lr' | 'gradNorm' }) {
  const series = useEngine((s) => s.run.series);
  const version = useEngine((s) => s.run.seriesVersion);
  return (
    <UPlotChart
      title={props.title}
      testId={props.testId}
      points={series.step.length}
      data={[series.step, series[props.pick]]}
      version={version}
      isEmpty={series.step.length === 0}
      emptyText="Starts with training"
      makeOptions={() => ({
        scales: NUMERIC_X,
        legend: LEGEND,
        axes: plainAxes('step'),
        series: [{ label: 'step' }, line(props.label, props.color, { value: fmt(3) })],
      })}
    />
  );
}

export const LearningRateChart = () => <StepSeriesChart title="Learning rate" testId="chart-lr" label="lr" color={COLORS.lr} pick="lr" />;

export const GradNormChart = () => (
  <StepSeriesChart title="Gradient norm (before clipping)" testId="chart-grad" label="grad norm" color={COLORS.grad} pick="gradNorm" />
);
