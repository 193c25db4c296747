import type { LatestEval } from '../state/engineState.ts';

/** When a report was taken, in words: "before training", "epoch 2", "step 300", or "the best model". */
export function evalWhen({ report, duringRun }: LatestEval): string {
  if (!duringRun && report.epoch === 0) return `the ${report.modelSlot} model`;
  if (report.epoch === 0 && report.step === 0) return 'before training';
  if (report.epochTrainLoss !== null) return `epoch ${report.epoch}`;
  return `epoch ${report.epoch}, step ${report.step}`;
}
