import { withSources } from '../../engine/data/candidateSources.ts';
import { candidateFields } from '../../engine/data/candidateFields.ts';
import type { BackendProfile } from '../../engine/backend/profile.ts';
import type { ModelConfig } from '../../engine/model/config.ts';
import type { Params } from '../../engine/model/params.ts';
import type { RunCheckpoint } from '../../engine/train/checkpoint.ts';
import type { RunInputs } from '../../engine/train/loop.ts';
import { type TrainSettings, modelConfigFor } from '../../engine/train/settings.ts';
import type { StepPeer } from '../../engine/train/step/stepPeer.ts';
import type { BackendInfo } from '../backend/backend.ts';
import { type LoadedData, TOKEN_CAP } from '../data/dataLoader.ts';

/** The model a run's settings describe, within the tokens the worker keeps per candidate. */
export function runModelConfig(settings: TrainSettings): ModelConfig {
  if (settings.model.maxLen > TOKEN_CAP) throw new Error(`maxLen ${settings.model.maxLen} is above the supported ${TOKEN_CAP}.`);
  return modelConfigFor(settings.model);
}

/** Activation bytes one pass may take: the backend profile's, or less on an adapter with a smaller binding limit. */
export function passBudget(profile: BackendProfile, backend: BackendInfo | null): number {
  const limit = backend?.adapter?.maxStorageBufferBindingSize;
  const budget = profile.passBudgetBytes;
  return limit ? Math.min(budget, limit) : budget;
}

/** What the loop is given: the data with its sources, the backend's profile and pass budget, the embedding update a resumed run was saved with, the helper threads. */
export function runInputs(
  settings: TrainSettings,
  cfg: ModelConfig,
  params: Params,
  data: LoadedData,
  resume: RunCheckpoint | null,
  profile: BackendProfile,
  backend: BackendInfo | null,
  peers: ReadonlyArray<StepPeer>,
): RunInputs {
  return {
    cfg,
    params,
    view: withSources(data.view, data.dataset),
    answers: data.answers,
    split: data.split,
    settings,
    profile,
    passBudgetBytes: passBudget(profile, backend),
    // A run resumes with the embedding update it was saved with, whichever backend runs it now.
    lazyEmbedding: resume ? resume.optimizer.lazy !== null : undefined,
    resumeFrom: resume ?? undefined,
    scoringPeers: peers,
    stepPeer: peers[0],
    fields: candidateFields(data.dataset.groups, settings.selectorFields ?? []),
  };
}
