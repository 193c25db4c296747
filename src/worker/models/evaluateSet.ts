import { withSources } from '../../engine/data/candidateSources.ts';
import { candidateFields } from '../../engine/data/candidateFields.ts';
import { recordedFigureSeed } from '../../engine/data/splitRecord.ts';
import { activeProfile } from '../../engine/backend/profile.ts';
import { readProbabilityMap } from '../../engine/metrics/recordedMap.ts';
import type { Params } from '../../engine/model/params.ts';
import { evaluateModel } from '../../engine/score/evaluation.ts';
import type { ScoringPeer } from '../../engine/score/scoring.ts';
import { trainingGenerators } from '../../engine/score/trainingGenerators.ts';
import type { Datasets } from '../data/datasets.ts';
import type { WorkerEvent } from '../protocols/events.ts';
import type { EvalSet, ModelSlot } from '../protocols/models.ts';
import type { TrainingState } from './trainingState.ts';
import { type CachedEvaluation, type EvaluationCache, roleOf } from './evaluationCache.ts';
import type { SlotModel } from './modelSlots.ts';
import { modelSplit } from './modelSplit.ts';

/** What evaluating a set reads besides the model. */
export interface EvaluateDeps {
  emit: (event: WorkerEvent) => void;
  datasets: Datasets;
  cache: EvaluationCache;
  runs: TrainingState;
  scoringPeers: () => ReadonlyArray<ScoringPeer>;
}

/**
 * The evaluation of the model read (`m`) on `set`, with the cache's key for it: validation on the training
 * file split as the model records it, a test file on all its questions; the generator weights the model
 * learnt, or for its own validation split fitted again on that split's training questions.
 */
export async function evaluateSet(
  set: EvalSet,
  m: { slot: ModelSlot; model: SlotModel; params: Params; step: number },
  deps: EvaluateDeps,
): Promise<{ key: string; evaluated: Omit<CachedEvaluation, 'model'> }> {
  const { cache, datasets, runs, emit } = deps;
  const key = cache.key(set, m.slot);
  // Validation reads the training file split as the model records it (modelSplit.ts).
  const trained = set === 'val' ? modelSplit(datasets, m.model, m.slot) : null;
  const data = trained?.data ?? datasets.require(roleOf(set));
  const groups = set === 'val' ? data.split.val : Uint32Array.from(data.dataset.groups.keys());
  if (groups.length === 0)
    throw new Error(set === 'val' ? 'The validation split is empty: the dataset needs more groups with both labels.' : 'The test file has no groups.');
  const seed = recordedFigureSeed(m.model.training, runs.settings.seed);
  const view = withSources(data.view, data.dataset);
  // The generator weights the model learnt from its training questions' labels; for its own validation
  // split they can be fitted again on that split's training questions.
  const recordedMap = readProbabilityMap(m.model.training.probabilityMap);
  const recorded = recordedMap?.generators ?? null;
  const generators = recorded ?? (set === 'val' ? trainingGenerators(view, data.answers, data.split.train, seed) : null);
  const scoring = {
    onProgress: (done: number, total: number) => emit({ type: 'evalProgress', set, done, total }),
    peers: deps.scoringPeers(),
    profile: activeProfile(),
  };
  const evaluation = await evaluateModel(
    m.model.cfg,
    m.params,
    view,
    data.answers,
    groups,
    seed,
    scoring,
    set === 'val' ? 'bothLabels' : 'allQuestions',
    generators,
    // The fields the model's selector was fitted with, else the settings' (as a run would fit it).
    candidateFields(data.dataset.groups, recordedMap?.selectorFields ?? deps.runs.settings.selectorFields ?? []),
  );
  return { key, evaluated: { step: m.step, data, groups, maxLen: m.model.cfg.maxLen, evaluation, heldOut: trained?.note ?? null } };
}
