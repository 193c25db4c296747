import { candidateAnswerKey } from '../../engine/data/answers/answers.ts';
import { parsePastedCandidates } from '../../engine/data/pasted.ts';
import { readModel } from '../../engine/io/modelFile.ts';
import { modelCard } from '../../engine/io/modelCard.ts';
import { isBestCheckpoint } from '../../engine/data/heldOutNote.ts';
import { describeProbabilityMap, rerankAnswers } from '../../engine/metrics/rerankProbability.ts';
import type { ProbabilityMap } from '../../engine/metrics/selectionTypes.ts';
import { selectionOf } from '../../engine/train/bestMetric.ts';
import { paramCount } from '../../engine/model/config.ts';
import { GPT2_VOCAB } from '../../engine/data/tokenize/gpt2.ts';
import { type Params, disposeParams, paramsFromArrays } from '../../engine/model/params.ts';
import type { ScoringPeer } from '../../engine/score/scoring.ts';
import { TOKEN_CAP } from '../data/dataLoader.ts';
import type { Datasets } from '../data/datasets.ts';
import { type CachedEvaluation, type EvaluationCache, roleOf } from './evaluationCache.ts';
import { exportModel } from './exportModel.ts';
import { inspectGroup } from './inspectGroup.ts';
import { explainCandidate } from '../../engine/score/explainEnergy.ts';
import type { ModelSlots, SlotModel } from './modelSlots.ts';
import { evaluateSet } from './evaluateSet.ts';
import { probabilityMapFor } from './probabilityMap.ts';
import { rankedCandidates, scorePasted } from './rerank.ts';
import type { DataRole } from '../protocols/data.ts';
import type { WorkerEvent } from '../protocols/events.ts';
import type { EvalSet, InspectFilter, ModelSlot, SaliencyTarget } from '../protocols/models.ts';
import type { TrainingState } from './trainingState.ts';
import type { PicksModel } from './picksModel.ts';
import { activeProfile } from '../../engine/backend/profile.ts';

/** What the model queries read and write besides the evaluation cache's entries. */
export interface QueryDeps {
  emit: (event: WorkerEvent, transfer?: Transferable[]) => void;
  datasets: Datasets;
  models: ModelSlots;
  cache: EvaluationCache;
  runs: TrainingState;
  scoringPeers: () => ReadonlyArray<ScoringPeer>;
  /** Sends the model slots to the UI. */
  emitModels: () => void;
}

/** The selected model as one command reads it; its weights stay valid until `release`. */
interface Reading {
  slot: ModelSlot;
  revision: number;
  model: SlotModel;
  params: Params;
  /** Optimizer steps of the latest model (of its snapshot during a run); 0 for the other slots. */
  step: number;
  release(): void;
}

/** A command whose model or data was replaced while it ran starts over on the new ones, this many times at most. */
const MAX_TRIES = 3;

/**
 * The commands that ask the selected model something: evaluate a set (cached for Inspect), Inspect one
 * group, Rerank pasted candidates, export it; and import a model file into the imported slot. Each
 * answer describes the model and data as they are when it is sent (see `onCurrent`).
 */
export class ModelQueries {
  constructor(private readonly deps: QueryDeps) {}

  select(slot: ModelSlot): void {
    this.deps.models.select(slot);
    this.deps.emitModels();
  }

  evaluate(set: EvalSet): Promise<void> {
    return this.withEvaluation(set, ({ evaluation, step, heldOut }) =>
      this.deps.emit({
        type: 'evaluation',
        report: {
          set,
          epoch: 0,
          step,
          epochTrainLoss: null,
          summary: evaluation.summary,
          curve: evaluation.curve,
          histogram: evaluation.histogram,
          selection: selectionOf(evaluation),
          allQuestionsAccuracy: evaluation.allQuestionsAccuracy,
          sources: evaluation.sources,
          isBest: false,
          origin: 'request',
          modelSlot: this.deps.models.active,
          heldOut: heldOut ?? null,
        },
      }),
    );
  }

  inspect(set: EvalSet, filter: InspectFilter, position: number): Promise<void> {
    return this.withEvaluation(set, (e) => this.deps.emit(inspectGroup(set, filter, position, e)));
  }

  /** An empty question is allowed: the input is then [CLS] [SEP] answer, which the reference scores too (the panel says so). */
  async rerank(question: string, pasted: string): Promise<void> {
    const parsed = parsePastedCandidates(pasted);
    if (!parsed.ok) throw new Error(parsed.message);
    const { texts } = parsed;
    await this.onCurrent(
      null,
      async (m) => {
        const probability = this.probabilityMapOf(m);
        return { probability, scores: await scorePasted(m.model.cfg, m.params, question, texts, activeProfile()) };
      },
      ({ scores, probability }, slot) => {
        const candidates = rankedCandidates(texts, scores);
        const answers = rerankAnswers(
          texts.map((t) => candidateAnswerKey(null, t)),
          scores.energies,
          probability.map,
        );
        const source = `${probability.source}; ${describeProbabilityMap(probability.map, { pasted: true })}`;
        this.deps.emit({
          type: 'reranked',
          question,
          candidates,
          modelSlot: slot,
          answers,
          temperature: probability.map.temperature,
          temperatureSource: source,
        });
      },
    );
  }

  /** "Why this energy?" for one candidate (Inspect's or Rerank's), on the selected model: its pieces' deletion effects, the variants scored on every core. */
  saliency(target: SaliencyTarget, question: string, text: string): Promise<void> {
    return this.onCurrent(
      null,
      (m) =>
        explainCandidate(m.model.cfg, m.params, question, text, {
          profile: activeProfile(),
          peers: this.deps.scoringPeers(),
          onProgress: (done, total) => this.deps.emit({ type: 'saliencyProgress', target, done, total }),
        }),
      (result, slot) => this.deps.emit({ type: 'saliency', target, modelSlot: slot, ...result }),
    );
  }

  /**
   * The model card (the figures of the selected model's evaluations at hand), then the weights it describes.
   * A loaded test set is evaluated for the card if it was not yet: its figures did not choose the model.
   */
  async export(): Promise<void> {
    if (this.deps.datasets.get('test')) {
      await this.withEvaluation('test', () => undefined).catch((e: unknown) =>
        this.deps.emit({ type: 'log', level: 'warn', message: `The model card has no test figures: ${e instanceof Error ? e.message : String(e)}` }),
      );
    }
    return this.onCurrent(
      null,
      async (m) => ({ file: await exportModel(m.model, m.params, m.slot), model: m.model, slot: m.slot }),
      ({ file: { fileName, bytes }, model, slot }) => {
        const card = new TextEncoder().encode(this.card(fileName, model, slot));
        this.deps.emit({ type: 'exported', fileName: fileName.replace(/\.safetensors$/, '.md'), bytes: card.buffer, what: 'card' }, [card.buffer]);
        this.deps.emit({ type: 'exported', fileName, bytes: bytes.buffer, what: 'weights' }, [bytes.buffer]);
      },
    );
  }

  private card(weightsFile: string, model: SlotModel, slot: ModelSlot): string {
    const { cache, runs } = this.deps;
    const evaluations = (['val', 'test'] as const).flatMap((set) => {
      const c = cache.get(set, runs.latestStep, runs.isTraining());
      if (!c) return [];
      const e = c.evaluation;
      return [
        {
          set,
          dataName: c.data.name,
          summary: e.summary,
          selection: selectionOf(e),
          sources: e.sources,
          allQuestionsAccuracy: e.allQuestionsAccuracy,
          heldOut: c.heldOut,
        },
      ];
    });
    const chosenOnValidation = slot === 'best' || isBestCheckpoint(model.training);
    return modelCard({
      weightsFile,
      description: model.description,
      source: model.source,
      config: model.cfg,
      params: paramCount(model.cfg),
      training: model.training,
      evaluations,
      exportedAt: new Date().toISOString(),
      chosenOnValidation,
    });
  }

  /** Rerank's probability map for the model read (probabilityMap.ts), with the validation at hand. */
  private probabilityMapOf(m: Reading): { map: ProbabilityMap; source: string } {
    const cached = this.deps.cache.get('val', this.deps.runs.latestStep, this.deps.runs.isTraining());
    return probabilityMapFor(m.model.training, cached ? selectionOf(cached.evaluation) : null);
  }

  import(bytes: ArrayBuffer, fileName: string): void {
    const { models, emit } = this.deps;
    const loaded = readModel(bytes, { copy: true });
    if (loaded.cfg.maxLen > TOKEN_CAP) throw new Error(`${fileName}: maxLen ${loaded.cfg.maxLen} is above the supported ${TOKEN_CAP}.`);
    if (loaded.cfg.vocabSize !== GPT2_VOCAB) {
      throw new Error(
        `${fileName}: the model has a vocabulary of ${loaded.cfg.vocabSize} tokens; EORM Studio feeds it GPT-2 BPE ids (${GPT2_VOCAB} tokens), which it could not read. Nothing was loaded.`,
      );
    }
    const params = paramsFromArrays(loaded.cfg, loaded.tensors);
    models.set('imported', { cfg: loaded.cfg, params, source: 'imported', description: fileName, warnings: loaded.warnings, training: loaded.training ?? {} });
    models.active = 'imported';
    for (const w of loaded.warnings) emit({ type: 'log', level: 'warn', message: `${fileName}: ${w}` });
    this.deps.emitModels();
  }

  /** The selected model for Pick answers (null when there is none), held until released, with the probability map Rerank uses. */
  async leaseIfAny(): Promise<PicksModel | null> {
    if (!this.deps.models.get()) return null;
    const m = await this.read();
    return { slot: m.slot, cfg: m.model.cfg, params: m.params, map: this.probabilityMapOf(m).map, release: m.release };
  }

  /** The selected model for a command that awaits: a lease on its slot, or for the model in training a copy taken between two steps. */
  private async read(): Promise<Reading> {
    const { models, runs } = this.deps;
    const lease = models.acquire();
    if (lease.slot !== 'latest' || !runs.isTraining()) {
      return {
        slot: lease.slot,
        revision: lease.revision,
        model: lease.model,
        params: lease.model.params,
        step: lease.slot === 'latest' ? runs.latestStep : 0,
        release: lease.release,
      };
    }
    lease.release();
    const snap = await runs.control().snapshot();
    return {
      slot: 'latest',
      revision: lease.revision,
      model: atStep(lease.model, snap.step),
      params: snap.params,
      step: snap.step,
      release: () => disposeParams(snap.params),
    };
  }

  /**
   * Runs `work` on the selected model (and the data of `role`, which `work` reads before its first
   * await), then checks that neither was replaced meanwhile: an import, a new run or best checkpoint,
   * another selection, a load. If one was, the answer would describe what is no longer there, so the
   * work starts over on the new ones. `deliver` runs right after the check, in the same microtask, so
   * nothing can replace the model between the check and the answer.
   */
  private async onCurrent<T>(role: DataRole | null, work: (m: Reading) => Promise<T>, deliver: (result: T, slot: ModelSlot) => void): Promise<void> {
    const { models, datasets } = this.deps;
    for (let attempt = 1; ; attempt++) {
      const m = await this.read();
      const version = role ? datasets.version(role) : 0;
      let result: T;
      try {
        result = await work(m);
      } finally {
        m.release();
      }
      const sameModel = models.active === m.slot && models.revision(m.slot) === m.revision;
      if (sameModel && (!role || datasets.version(role) === version)) return deliver(result, m.slot);
      if (attempt === MAX_TRIES) throw new Error(`The ${sameModel ? 'data' : 'selected model'} kept changing while this ran; try again.`);
    }
  }

  /** Hands `use` the evaluation of the selected model on `set`: cached when neither the model nor the data changed since, else computed now. */
  private async withEvaluation(set: EvalSet, use: (e: CachedEvaluation) => void): Promise<void> {
    const { cache, runs } = this.deps;
    const cached = cache.get(set, runs.latestStep, runs.isTraining());
    if (cached) return use(cached);
    await this.onCurrent(
      roleOf(set),
      (m) => evaluateSet(set, m, this.deps),
      ({ key, evaluated }, slot) => use(cache.store(set, slot, evaluated, key)),
    );
  }
}

/** The model in training as of a snapshot at `step`: its last validation's figures describe another step, so they move aside. */
function atStep(model: SlotModel, step: number): SlotModel {
  const { epoch, step: validated, valBestOfN, epochTrainLoss, ...rest } = model.training;
  if (validated === step) return model;
  return {
    ...model,
    description: `training, step ${step}`,
    training: { ...rest, step, lastValidation: { epoch, step: validated, valBestOfN, epochTrainLoss } },
  };
}
