import uPlot from 'uplot';
import type { TrainSeries } from '../../state/series.ts';
import { useEngine } from '../../state/hooks.ts';
import { COLORS, LEGEND, NUMERIC_X, line, plainAxes } from './chartStyle.ts';
import { UPlotChart } from './UPlotChart.tsx';

const fmt = (digits: number) => (_u: uPlot, v: number | null) => (v === null ? '—' : v.toPrecision(digits));

type Quantity = Exclude<keyof TrainSeries, 'step'>;

/** Per-step quantities against the step; every training curve has this shape. */
function StepSeriesChart(props: {
  title: string;
  testId: string;
  lines: Array<{ pick: Quantity; label: string; color: string; width?: number; digits: number }>;
}) {
  const series = useEngine((s) => s.run.series);
  const version = useEngine((s) => s.run.seriesVersion);
  return (
    <UPlotChart
      title={props.title}
      testId={props.testId}
      points={series.step.length}
      data={[series.step, ...props.lines.map((l) => series[l.pick])]}
      version={version}
      isEmpty={series.step.length === 0}
      emptyText="Starts with training"
      makeOptions={() => ({
        scales: NUMERIC_X,
        legend: LEGEND,
        axes: plainAxes('step'),
        series: [{ label: 'step' }, ...props.lines.map((l) => line(l.label, l.color, { width: l.width ?? 1.5, value: fmt(l.digits) }))],
      })}
    />
  );
}

export const LossChart = () => (
  <StepSeriesChart
    title="Training loss per step"
    testId="chart-loss"
    lines={[
      { pick: 'loss', label: 'raw', color: COLORS.raw, width: 1, digits: 4 },
      { pick: 'smoothed', label: 'smoothed', color: COLORS.model, width: 2, digits: 4 },
    ]}
  />
);

export const LearningRateChart = () => (
  <StepSeriesChart title="Learning rate" testId="chart-lr" lines={[{ pick: 'lr', label: 'lr', color: COLORS.lr, digits: 3 }]} />
);

export const GradNormChart = () => (
  <StepSeriesChart
    title="Gradient norm (before clipping)"
    testId="chart-grad"
    lines={[{ pick: 'gradNorm', label: 'grad norm', color: COLORS.grad, digits: 3 }]}
  />
);
