import { splitGroups } from '../../src/engine/data/split.ts';
import { makeConfig } from '../../src/engine/model/config.ts';
import { disposeParams, initParams, paramsToArrays } from '../../src/engine/model/params.ts';
import { crossBackendResumes } from '../../src/engine/testing/resumeRuns.ts';
import { syntheticView } from '../../src/engine/testing/syntheticData.ts';
import { DEFAULT_TRAIN_SETTINGS } from '../../src/engine/train/settings.ts';
import { initBackend } from '../../src/worker/backend/backend.ts';
import type { BackendName } from '../../src/worker/backend/backendInfo.ts';
import { activeProfile } from '../../src/engine/backend/profile.ts';

// A tiny model, a few steps with dropout on: WebGPU here may be a software adapter (SwiftShader).
const cfg = makeConfig({ vocabSize: 64, dModel: 16, nHeads: 2, nLayers: 2, ffnDim: 32, maxLen: 32, dropout: 0.1, clsId: 63, sepId: 63, padId: 63 });
const data = syntheticView({ groups: 10, groupSize: 4, vocab: 63, marker: 7, seed: 3, cls: 63 });
const settings = {
  ...DEFAULT_TRAIN_SETTINGS,
  model: { ...DEFAULT_TRAIN_SETTINGS.model, dModel: 16, nHeads: 2, nLayers: 2, ffnDim: 32, maxLen: 32, dropout: 0.1 },
  epochs: 1,
  lr: 3e-3,
  seed: 5,
  checkpointEverySteps: 3,
};
const BACKENDS = ['webgpu', 'wasm'] as const;

async function main() {
  const t0 = performance.now();
  // Training groups only: validation plays no part in a resume, and costs minutes on a software adapter.
  const split = { ...splitGroups(data.view, { seed: 1 }), val: new Uint32Array(0) };
  const adapters: Record<string, unknown> = {};
  // Where the check is, for the test's log: on a software adapter the first step compiles every kernel (minutes on a loaded machine).
  const say = (what: string) => self.postMessage({ progress: `${what} at ${((performance.now() - t0) / 1000).toFixed(1)} s` });
  const use = async (name: string) => {
    say(name);
    const info = await initBackend(name as BackendName, BACKENDS);
    if (info.backend !== name) throw new Error(`${name} did not start here: ${info.reason}`);
    adapters[name] = info.adapter ?? null;
  };
  await use('wasm');
  const made = initParams(cfg, 4);
  const init = await paramsToArrays(made, activeProfile());
  disposeParams(made);
  const runs = await crossBackendResumes(
    { cfg, view: data.view, answers: data.answers, split, settings, onStep: (step: number) => step === 1 && say('first step done') },
    init,
    3,
    BACKENDS,
    use,
  );
  return { runs, trainSteps: split.train.length, adapters, seconds: (performance.now() - t0) / 1000 };
}

self.addEventListener('message', () => {
  main().then(
    (report) => self.postMessage(report),
    (err: unknown) => self.postMessage({ error: err instanceof Error ? `${err.message}\n${err.stack}` : String(err) }),
  );
});
