import uPlot from 'uplot';
import { engineStore } from '../../state/engineStore.ts';
import { useEngine } from '../../state/hooks.ts';
import { COLORS, LEGEND, NUMERIC_X, line, pctValue, percentAxes, reference } from './chartStyle.ts';
import { UPlotChart } from './UPlotChart.tsx';

/** Integer steps only on the ordinal axis: one tick per evaluation, labelled "start", "ep 1", "s 300". */
const ORDINAL_INCRS = [1, 2, 3, 4, 5, 10, 20, 50, 100, 200, 500];

/** Labels are read from the store when uPlot draws, so the options built once stay current. */
const currentLabels = (): string[] => engineStore.getState().run.valSeries.label;
const values = (_u: uPlot, splits: number[]) => splits.map((v) => (Number.isInteger(v) ? (currentLabels()[v] ?? '') : ''));
const xValue = (_u: uPlot, v: number | null) => (v === null ? '—' : (currentLabels()[v] ?? String(v)));

/** Shares (0–100%) against the evaluation ordinal: the frame both validation charts use. */
const perEvaluationPercent = () => ({
  scales: { ...NUMERIC_X, y: { range: [0, 1] as [number, number] } },
  legend: LEGEND,
  axes: [{ ...percentAxes('evaluation', values)[0], incrs: ORDINAL_INCRS }, percentAxes('')[1]],
});

/** Validation Best-of-N per evaluation, with the baselines as reference lines. */
export function ValBestOfNChart() {
  const val = useEngine((s) => s.run.valSeries);
  const version = useEngine((s) => s.run.valVersion);
  return (
    <UPlotChart
      title="Validation Best-of-N vs baselines"
      testId="chart-val-bon"
      points={val.ordinal.length}
      data={[val.ordinal, val.bestOfN, val.first, val.random, val.majority, val.weighted, val.oracle]}
      version={version}
      isEmpty={val.ordinal.length === 0}
      emptyText="After the first validation"
      makeOptions={() => ({
        ...perEvaluationPercent(),
        series: [
          { label: 'eval', value: xValue },
          line('model', COLORS.model, { width: 2, value: pctValue, points: { show: true, size: 5 } }),
          reference('first', COLORS.first),
          reference('random', COLORS.random),
          reference('majority', COLORS.majority),
          reference('weighted vote', COLORS.weighted),
          reference('oracle', COLORS.oracle),
        ],
      })}
    />
  );
}

export function PairwiseChart() {
  const val = useEngine((s) => s.run.valSeries);
  const version = useEngine((s) => s.run.valVersion);
  return (
    <UPlotChart
      title="Validation pairwise accuracy"
      testId="chart-pairwise"
      points={val.ordinal.length}
      data={[val.ordinal, val.pairwise, val.pairwiseMacro]}
      version={version}
      isEmpty={val.ordinal.length === 0}
      emptyText="After the first validation"
      makeOptions={() => ({
        ...perEvaluationPercent(),
        series: [
          { label: 'eval', value: xValue },
          line('pairs (micro)', COLORS.model, { width: 2, value: pctValue, points: { show: true, size: 5 } }),
          line('per-group AUC (macro)', COLORS.macro, { value: pctValue, points: { show: true, size: 4 } }),
        ],
      })}
    />
  );
}
