import uPlot from 'uplot';
import { engineStore } from '../../state/engineStore.ts';
import { useEngine } from '../../state/hooks.ts';
import type { EvalSeries } from '../../state/series.ts';
import { COLORS, LEGEND, NUMERIC_X, line, pctValue, percentAxes, reference } from './chartStyle.ts';
import { UPlotChart } from './UPlotChart.tsx';

/** Integer steps only on the ordinal axis: one tick per evaluation, labelled "start", "ep 1", "s 300". */
const ORDINAL_INCRS = [1, 2, 3, 4, 5, 10, 20, 50, 100, 200, 500];

/** Labels are read from the store when uPlot draws, so the options built once stay current. */
const currentLabels = (): string[] => engineStore.getState().run.valSeries.label;
const values = (_u: uPlot, splits: number[]) => splits.map((v) => (Number.isInteger(v) ? (currentLabels()[v] ?? '') : ''));
const xValue = (_u: uPlot, v: number | null) => (v === null ? '—' : (currentLabels()[v] ?? String(v)));

/** Per-evaluation shares (0–100%) of the run's validations: the frame both validation charts use. */
function EvalSeriesChart(props: { title: string; testId: string; data: (val: EvalSeries) => uPlot.AlignedData; series: uPlot.Series[] }) {
  const val = useEngine((s) => s.run.valSeries);
  const version = useEngine((s) => s.run.valVersion);
  return (
    <UPlotChart
      title={props.title}
      testId={props.testId}
      points={val.ordinal.length}
      data={props.data(val)}
      version={version}
      isEmpty={val.ordinal.length === 0}
      emptyText="After the first validation"
      makeOptions={() => ({
        scales: { ...NUMERIC_X, y: { range: [0, 1] } },
        legend: LEGEND,
        axes: [{ ...percentAxes('evaluation', values)[0], incrs: ORDINAL_INCRS }, percentAxes('')[1]],
        series: [{ label: 'eval', value: xValue }, ...props.series],
      })}
    />
  );
}

/** Validation Best-of-N per evaluation, with the baselines as reference lines. */
export const ValBestOfNChart = () => (
  <EvalSeriesChart
    title="Validation Best-of-N vs baselines"
    testId="chart-val-bon"
    data={(v) => [v.ordinal, v.bestOfN, v.first, v.random, v.majority, v.weighted, v.oracle]}
    series={[
      line('model', COLORS.model, { width: 2, value: pctValue, points: { show: true, size: 5 } }),
      reference('first', COLORS.first),
      reference('random', COLORS.random),
      reference('majority', COLORS.majority),
      // summary.baselines.weightedVote: the vote at T = 1, not the selection report's fitted one.
      reference('weighted vote (T = 1)', COLORS.weighted),
      reference('oracle', COLORS.oracle),
    ]}
  />
);

export const PairwiseChart = () => (
  <EvalSeriesChart
    title="Validation pairwise accuracy"
    testId="chart-pairwise"
    data={(v) => [v.ordinal, v.pairwise, v.pairwiseMacro]}
    series={[
      line('pairs (micro)', COLORS.model, { width: 2, value: pctValue, points: { show: true, size: 5 } }),
      line('per-group AUC (macro)', COLORS.macro, { value: pctValue, points: { show: true, size: 4 } }),
    ]}
  />
);
