import { disposeParams, type Params } from '../model/params.ts';
import { isBetter, metricValue } from './bestMetric.ts';
import { evaluateModel } from '../score/evaluation.ts';
import { trainingGenerators } from '../score/trainingGenerators.ts';
import type { Run } from './run.ts';

/** The validation of `weights`; `alongside`: scored by the peers only, while this thread trains. */
const evaluate = (run: Run, weights: Params, alongside: boolean) => {
  const { cfg, view, answers, split, settings, scoringPeers, fields } = run.inputs;
  const scoring = { onProgress: run.listener.evalProgress, peers: scoringPeers, peersOnly: alongside, profile: run.profile };
  return evaluateModel(
    cfg,
    weights,
    view,
    answers,
    split.val,
    settings.seed,
    scoring,
    'bothLabels',
    trainingGenerators(view, answers, split.train, settings.seed),
    fields ?? null,
  );
};

/**
 * The held-out groups scored between two steps (with no step running meanwhile), reported with whether the
 * model is the run's best so far by its metric.
 */
export async function validate(run: Run, epoch: number, epochTrainLoss: number | null): Promise<void> {
  const { inputs, state } = run;
  if (inputs.split.val.length === 0) return;
  await settleUntrained(run);
  run.optimizer.sync(inputs.params);
  const evaluation = await run.control.holdStill(run.take, () => evaluate(run, inputs.params, false));
  // Scoring's batches leave their own sizes in WebGPU's pool: back to the budget before the next step.
  run.gpuPool?.trim();
  const bon = evaluation.summary.bestOfN;
  // The untrained model (epoch 0) is a reference point, never a checkpoint: on a small validation set it could stay best.
  const score = metricValue(evaluation, run.metric);
  const isBest = epoch >= 1 && isBetter(score, state.bestScore, run.metric);
  if (isBest) {
    state.best = bon;
    state.bestScore = score;
  }
  run.listener.evaluation({ epoch, step: state.step, epochTrainLoss, evaluation, isBest });
}

/**
 * The untrained model's validation where steps are shared with a peer (WASM on two cores): scored there,
 * on a copy of the weights, while this thread trains alone, so Start → first step does not wait for it
 * (on long answers it scores the held-out groups for a minute). Reported between
 * two steps once scored, and awaited before any later validation or checkpoint, so the run's
 * evaluations and checkpoints keep their order.
 */
export function validateUntrainedAlongside(run: Run): void {
  const untrained = run.untrained;
  const copy = run.take();
  const scored = evaluate(run, copy.params, true).finally(() => disposeParams(copy.params));
  untrained.scoring = scored.then((evaluation) => void (untrained.scored = { epoch: 0, step: 0, epochTrainLoss: null, evaluation, isBest: false }));
  // Its failure is the run's, raised where it is awaited.
  untrained.scoring.catch(() => undefined);
}

/** The untrained model's validation, reported if it has been scored. */
export function reportUntrained(run: Run): void {
  const untrained = run.untrained;
  if (!untrained.scored) return;
  run.listener.evaluation(untrained.scored);
  untrained.scored = null;
  untrained.scoring = null;
}

/** The untrained model's validation, awaited and reported if it is under way. */
export async function settleUntrained(run: Run): Promise<void> {
  if (!run.untrained.scoring) return;
  await run.untrained.scoring;
  reportUntrained(run);
}
