/**
 * Column arrays for charts that grow by appending. They are mutated in place (push) and a version
 * counter in the store is bumped instead of copying: a long run sends tens of thousands of points,
 * and copying every column on every metrics event would be quadratic. uPlot reads the same arrays.
 */
import type { EvalReport } from '../worker/protocols/models.ts';
import type { TrainPoint } from '../worker/protocols/training.ts';

/** A chart value: non-finite numbers become null so uPlot draws a gap instead of breaking its scales. */
export type ChartValue = number | null;
const chartValue = (x: number): ChartValue => (Number.isFinite(x) ? x : null);

export interface TrainSeries {
  step: number[];
  loss: ChartValue[];
  smoothed: ChartValue[];
  lr: ChartValue[];
  gradNorm: ChartValue[];
}

export function emptyTrainSeries(): TrainSeries {
  return { step: [], loss: [], smoothed: [], lr: [], gradNorm: [] };
}

export function appendTrainPoints(s: TrainSeries, points: readonly TrainPoint[]): void {
  for (const p of points) {
    s.step.push(p.step);
    s.loss.push(chartValue(p.loss));
    s.smoothed.push(chartValue(p.smoothed));
    s.lr.push(chartValue(p.lr));
    s.gradNorm.push(chartValue(p.gradNorm));
  }
}

/** One column per plotted quantity of the validation reports of a run, in arrival order. */
export interface EvalSeries {
  /** 0, 1, 2, … : reports are plotted by arrival, since standalone evaluations can repeat or rewind a step. */
  ordinal: number[];
  /** Tick labels for the ordinal axis ("start", "ep 2", "s 300"). */
  label: string[];
  bestOfN: ChartValue[];
  pairwise: ChartValue[];
  pairwiseMacro: ChartValue[];
  first: ChartValue[];
  random: ChartValue[];
  majority: ChartValue[];
  weighted: ChartValue[];
  oracle: ChartValue[];
}

export function emptyEvalSeries(): EvalSeries {
  return {
    ordinal: [],
    label: [],
    bestOfN: [],
    pairwise: [],
    pairwiseMacro: [],
    first: [],
    random: [],
    majority: [],
    weighted: [],
    oracle: [],
  };
}

/** "start" for the evaluation before training, "ep N" at an epoch end, else "s STEP". */
export function evalLabel(r: Pick<EvalReport, 'epoch' | 'step' | 'epochTrainLoss'>): string {
  if (r.epoch === 0 && r.step === 0) return 'start';
  if (r.epochTrainLoss !== null) return `ep ${r.epoch}`;
  return `s ${r.step}`;
}

export function appendEvalReport(s: EvalSeries, r: EvalReport): void {
  const { summary: m } = r;
  s.ordinal.push(s.ordinal.length);
  s.label.push(evalLabel(r));
  s.bestOfN.push(chartValue(m.bestOfN));
  s.pairwise.push(chartValue(m.pairwise));
  s.pairwiseMacro.push(chartValue(m.pairwiseMacro));
  s.first.push(chartValue(m.baselines.firstCandidate));
  s.random.push(chartValue(m.baselines.randomExpected));
  s.majority.push(chartValue(m.baselines.majorityVote));
  s.weighted.push(chartValue(m.baselines.weightedVote));
  s.oracle.push(chartValue(m.baselines.oracle));
}
