import { useMemo } from 'react';
import uPlot from 'uplot';
import type { LatestEval } from '../../state/engineState.ts';
import { useEngine } from '../../state/hooks.ts';
import { evalWhen } from '../evalWhen.ts';
import { COLORS, LEGEND, line, pctValue, percentAxes, plainAxes } from './chartStyle.ts';
import { UPlotChart } from './UPlotChart.tsx';

/** The report the detail charts show: the most recent evaluation of any set. */
function useLatest(): LatestEval | null {
  return useEngine((s) => (s.lastEvalSet ? s.latestEval[s.lastEvalSet] : null));
}

const reportName = (l: LatestEval | null): string => (l ? `${l.report.set === 'val' ? 'validation' : 'test'}, ${evalWhen(l)}` : 'no evaluation yet');

/** Accuracy against the number of candidates N on a log2 axis (as in the EORM paper, Figure 3). */
export function NCurveChart() {
  const latest = useLatest();
  const report = latest?.report;
  const data = useMemo<uPlot.AlignedData>(() => {
    const rows = report?.curve ?? [];
    return [
      rows.map((r) => r.n),
      rows.map((r) => r.model),
      rows.map((r) => r.majorityVote),
      rows.map((r) => r.weightedVote),
      rows.map((r) => r.random),
      rows.map((r) => r.oracle),
    ];
  }, [report]);
  return (
    <UPlotChart
      title={`Best-of-N vs N (${reportName(latest)})`}
      testId="chart-ncurve"
      points={data[0].length}
      data={data}
      isEmpty={data[0].length === 0}
      emptyText="After the first evaluation"
      makeOptions={() => ({
        scales: { x: { time: false, distr: 3, log: 2 }, y: { range: [0, 1] } },
        legend: LEGEND,
        axes: percentAxes('N candidates (log₂)'),
        series: [
          { label: 'N' },
          line('model', COLORS.model, { width: 2, value: pctValue, points: { show: true, size: 5 } }),
          line('majority vote', COLORS.majority, { value: pctValue, points: { show: true, size: 4 } }),
          // The curve draws the vote at T = 1 (heldOut.ts), not the selection report's fitted one.
          line('weighted vote (T = 1)', COLORS.weighted, { value: pctValue, dash: [4, 3] }),
          line('random', COLORS.random, { value: pctValue, dash: [5, 4] }),
          line('oracle', COLORS.oracle, { value: pctValue, dash: [5, 4] }),
        ],
      })}
    />
  );
}

/** Energy distributions of correct and incorrect candidates on the worker's shared bin edges. */
export function EnergyHistogramChart() {
  const latest = useLatest();
  const report = latest?.report;
  const data = useMemo<uPlot.AlignedData>(() => {
    const h = report?.histogram;
    if (!h || h.edges.length < 2) return [[], [], []];
    // Stepped lines hold each bin's count from its left edge to the next: repeat the last count at the right edge.
    const hold = (counts: number[]) => [...counts, counts[counts.length - 1] ?? 0];
    return [h.edges, hold(h.correct), hold(h.incorrect)];
  }, [report]);
  const skipped = report?.histogram.skipped ?? 0;
  const stepped = uPlot.paths.stepped?.({ align: 1 });
  return (
    <UPlotChart
      title={`Energy by label (${reportName(latest)})${skipped > 0 ? ` · ${skipped} non-finite skipped` : ''}`}
      testId="chart-energy-hist"
      points={data[0].length}
      data={data}
      isEmpty={data[0].length === 0}
      emptyText="After the first evaluation"
      makeOptions={() => ({
        scales: { x: { time: false } },
        legend: LEGEND,
        axes: plainAxes('energy (lower = better)'),
        series: [
          { label: 'energy', value: (_u, v) => (v === null ? '—' : v.toPrecision(4)) },
          { label: 'correct', stroke: COLORS.correct, fill: 'rgba(21, 128, 61, 0.18)', width: 1.5, paths: stepped, points: { show: false } },
          { label: 'incorrect', stroke: COLORS.incorrect, fill: 'rgba(185, 28, 28, 0.15)', width: 1.5, paths: stepped, points: { show: false } },
        ],
      })}
    />
  );
}
