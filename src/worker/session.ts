import { candidateAnswerKey } from '../engine/data/answers.ts';
import { formatLineErrors } from '../engine/data/lineErrors.ts';
import { parsePastedCandidates } from '../engine/data/pasted.ts';
import { splitGroups } from '../engine/data/split.ts';
import { tokenizeChunk } from '../engine/data/tokenize.ts';
import type { TokenizePool } from '../engine/data/tokenizePool.ts';
import { readModel } from '../engine/io/modelFile.ts';
import { GPT2_EOT, GPT2_VOCAB, type ModelConfig, makeConfig } from '../engine/model/config.ts';
import { cloneParams, initParams, paramsFromArrays } from '../engine/model/params.ts';
import { DEFAULT_PASS_BUDGET_BYTES, autoMicroBatch } from '../engine/train/autoMicroBatch.ts';
import { estimateMemory } from '../engine/train/estimate.ts';
import type { Evaluation } from '../engine/train/evaluation.ts';
import { evaluateModel } from '../engine/train/evaluation.ts';
import { runTraining } from '../engine/train/loop.ts';
import { argminEnergy, rankGroup } from '../engine/train/metricsRank.ts';
import { RunControl } from '../engine/train/runControl.ts';
import { scoreCandidates } from '../engine/train/scoring.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from '../engine/train/settings.ts';
import type { BackendInfo } from './backend.ts';
import { type LoadedData, TOKEN_CAP, loadData, summarize } from './dataLoader.ts';
import { exportModel } from './exportModel.ts';
import { ModelSlots } from './modelSlots.ts';
import type { Command, DataRole, DatasetSummary, EvalReport, EvalSet, InspectFilter, ModelSlot, RankedCandidate, WorkerEvent } from './protocol.ts';

type Emit = (event: WorkerEvent, transfer?: Transferable[]) => void;

/** An evaluation of one set by one model state, kept for Inspect. */
interface CachedEvaluation {
  key: string;
  groups: Uint32Array;
  evaluation: Evaluation;
}

/**
 * Everything the worker holds: loaded data, the model slots, the training run. Each command handler
 * either finishes or throws; a throw becomes an `error` event and leaves the state as it was.
 */
export class Session {
  private data: Partial<Record<DataRole, LoadedData>> = {};
  private readonly models = new ModelSlots();
  private run: { control: RunControl; settings: TrainSettings } | null = null;
  private settings: TrainSettings = DEFAULT_TRAIN_SETTINGS;
  /** Optimizer steps applied to the latest model since it was created: tells whether a cached evaluation is stale. */
  private latestStep = 0;
  private cache = new Map<EvalSet, CachedEvaluation>();
  /** maxLen and split seed each dataset's last summary was made with. */
  private summarized = new WeakMap<LoadedData, string>();

  constructor(
    private readonly emit: Emit,
    private readonly pool: () => TokenizePool,
    private readonly backend: () => BackendInfo | null,
  ) {}

  /** A run is in progress (training, compiling or paused). */
  isTraining(): boolean {
    return this.run !== null;
  }

  async handle(cmd: Command): Promise<void> {
    switch (cmd.type) {
      case 'init':
      case 'setBackend':
        return; // answered by the worker entry (backend selection)
      case 'loadData':
        return this.loadData(cmd.role, cmd.source);
      case 'downloadErrors':
        return this.downloadErrors(cmd.role, cmd.format);
      case 'estimate':
        return this.estimate(cmd.settings);
      case 'start':
        return this.start(cmd.settings);
      case 'pause':
        return this.requireRun().control.pause();
      case 'resume':
        return this.requireRun().control.resume();
      case 'stop':
        return this.requireRun().control.stop();
      case 'evaluate':
        return this.evaluate(cmd.set);
      case 'inspect':
        return this.inspect(cmd.set, cmd.filter, cmd.position);
      case 'rerank':
        return this.rerank(cmd.question, cmd.candidates);
      case 'selectModel':
        this.models.select(cmd.slot);
        return this.emitModels();
      case 'export':
        return this.export();
      case 'import':
        return this.import(cmd.bytes, cmd.fileName);
    }
  }

  private requireRun() {
    if (!this.run) throw new Error('No training is running.');
    return this.run;
  }

  private requireData(role: DataRole): LoadedData {
    const d = this.data[role];
    if (!d) throw new Error(role === 'train' ? 'Load a dataset first (a JSONL file, or the built-in sample).' : 'Load a test file first.');
    return d;
  }

  private async loadData(role: DataRole, source: Parameters<typeof loadData>[1]): Promise<void> {
    if (role === 'train' && this.run) throw new Error('Stop the training run before loading another training file.');
    const loaded = await loadData(role, source, this.pool(), this.settings.seed, (e) => this.emit(e));
    this.data[role] = loaded;
    this.cache.delete(role === 'train' ? 'val' : 'test');
    this.emit({ type: 'dataset', summary: this.summary(loaded), reason: 'loaded' });
  }

  /** The panel's figures, judged against the current maxLen and split; remembered so refreshes happen only on change. */
  private summary(d: LoadedData): DatasetSummary {
    const summary = summarize(d, this.settings.model.maxLen);
    this.summarized.set(d, `${this.settings.model.maxLen}:${d.splitSeed}`);
    return summary;
  }

  /** Truncation counts depend on maxLen, the split on the seed: re-send a summary when either moved. */
  private refreshSummaries(): void {
    for (const d of Object.values(this.data)) {
      if (this.summarized.get(d) !== `${this.settings.model.maxLen}:${d.splitSeed}`) this.emit({ type: 'dataset', summary: this.summary(d), reason: 'refreshed' });
    }
  }

  private downloadErrors(role: DataRole, format: 'text' | 'csv' | 'jsonl'): void {
    const d = this.requireData(role);
    const mime = { text: 'text/plain', csv: 'text/csv', jsonl: 'application/x-ndjson' }[format];
    const ext = { text: 'txt', csv: 'csv', jsonl: 'jsonl' }[format];
    this.emit({ type: 'errorList', fileName: `${d.name.replace(/\.[^.]*$/, '')}.rejected.${ext}`, mime, text: formatLineErrors(d.dataset.report.errors, format) });
  }

  private modelConfig(settings: TrainSettings): ModelConfig {
    if (settings.model.maxLen > TOKEN_CAP) throw new Error(`maxLen ${settings.model.maxLen} is above the supported ${TOKEN_CAP}.`);
    return makeConfig({ ...settings.model, vocabSize: GPT2_VOCAB, clsId: GPT2_EOT, sepId: GPT2_EOT, padId: GPT2_EOT });
  }

  private estimate(settings: TrainSettings): void {
    this.settings = settings;
    const cfg = this.modelConfig(settings);
    const data = this.data.train;
    const largestGroup = data ? data.dataset.groups.reduce((m, g) => Math.max(m, g.candidates.length), 0) : 4;
    const perStep = largestGroup * settings.groupsPerStep;
    const perPass = settings.microBatch > 0 ? settings.microBatch : (autoMicroBatch(cfg, perStep, cfg.maxLen, this.passBudget()) ?? perStep);
    const adapter = this.backend()?.adapter ?? null;
    const e = estimateMemory(cfg, perPass, perPass < perStep, adapter);
    this.emit({ type: 'estimate', estimate: { params: e.params, trainingBytes: e.trainingBytes, largestBufferBytes: e.largestBufferBytes, warnings: e.warnings } });
    this.refreshSummaries();
  }

  /** Activation bytes one pass may take: the default, or less on an adapter with a smaller binding limit. */
  private passBudget(): number {
    const limit = this.backend()?.adapter?.maxStorageBufferBindingSize;
    return limit ? Math.min(DEFAULT_PASS_BUDGET_BYTES, limit) : DEFAULT_PASS_BUDGET_BYTES;
  }

  private async start(settings: TrainSettings): Promise<void> {
    if (this.run) throw new Error('Training is already running: pause or stop it first.');
    const data = this.requireData('train');
    this.settings = settings;
    let cfg: ModelConfig;
    let params;
    if (settings.init === 'continue') {
      const from = this.models.require();
      cfg = from.cfg;
      params = cloneParams(from.params, true);
      this.emit({ type: 'log', level: 'info', message: `Continuing from the ${this.models.active} model (its config wins over the form's model fields).` });
    } else {
      cfg = this.modelConfig(settings);
      params = initParams(cfg, settings.seed);
    }
    if (data.splitSeed !== settings.seed) {
      data.split = splitGroups(data.view, { seed: settings.seed });
      data.splitSeed = settings.seed;
    }
    this.refreshSummaries();
    this.models.clearTrained();
    this.models.set('latest', { cfg, params, source: 'trained', description: 'training…', warnings: [], training: {} });
    this.models.active = 'latest';
    this.latestStep = 0;
    this.cache.clear();
    this.emitModels();
    const control = new RunControl();
    this.run = { control, settings };
    const totalSteps = settings.epochs * Math.ceil(data.split.train.length / Math.max(1, settings.groupsPerStep));
    const state = (s: 'compiling' | 'training' | 'paused' | 'done' | 'error', step: number, epoch: number, message?: string) =>
      this.emit({ type: 'trainState', state: s, step, epoch, totalSteps, totalEpochs: settings.epochs, message });
    const summary = (extra: Record<string, unknown>) => ({ dataset: data.name, trainGroups: data.split.train.length, valGroups: data.split.val.length, settings, ...extra });
    // Runs in the background: pause/resume/stop commands arrive while it awaits the GPU.
    void runTraining(
      { cfg, params, view: data.view, answers: data.answers, split: data.split, settings, passBudgetBytes: this.passBudget() },
      {
        state: (s, step, epoch) => state(s, step, epoch),
        points: (points) => {
          this.latestStep = points[points.length - 1].step + 1;
          this.emit({ type: 'metrics', points });
        },
        progress: (p) => this.emit({ type: 'progress', ...p }),
        evalProgress: (done, total) => this.emit({ type: 'evalProgress', set: 'val', done, total }),
        evaluation: (e) => {
          const { summary: s, curve, histogram } = e.evaluation;
          const report: EvalReport = { set: 'val', epoch: e.epoch, step: e.step, epochTrainLoss: e.epochTrainLoss, summary: s, curve, histogram, isBest: e.isBest, origin: 'run', modelSlot: 'latest' };
          this.cache.set('val', { key: this.cacheKey('val', 'latest', e.step), groups: data.split.val, evaluation: e.evaluation });
          const latest = this.models.get('latest')!;
          latest.description = `epoch ${e.epoch}, step ${e.step}, val Best-of-N ${s.bestOfN.toFixed(3)}`;
          latest.training = summary({ epoch: e.epoch, step: e.step, valBestOfN: s.bestOfN, epochTrainLoss: e.epochTrainLoss });
          if (e.isBest) {
            this.models.snapshotBest(`best: ${latest.description}`, latest.training);
            this.emit({ type: 'checkpoint', slot: 'best', epoch: e.epoch, step: e.step, valBestOfN: s.bestOfN });
          }
          this.emit({ type: 'evaluation', report });
          this.emitModels();
        },
      },
      control,
    )
      .then((r) => {
        state('done', r.steps, settings.epochs);
        this.emit({ type: 'complete', reason: r.reason, steps: r.steps, bestValBestOfN: r.bestValBestOfN });
      })
      .catch((err: unknown) => {
        state('error', this.latestStep, 0, String((err as Error).message ?? err));
        this.emit({ type: 'error', command: 'start', message: `Training stopped: ${(err as Error).message ?? String(err)}` });
      })
      .finally(() => {
        this.run = null;
        this.emitModels();
      });
  }

  /** Identifies a model state: the slot's revision, and for the model in training also its step. */
  private cacheKey(set: EvalSet, slot: ModelSlot, step: number): string {
    return `${set}:${slot}:${this.models.get(slot)?.revision ?? -1}:${slot === 'latest' ? step : 0}`;
  }

  /** The evaluation Inspect shows: cached when the selected model has not changed since, else computed now. */
  private async evaluationFor(set: EvalSet): Promise<CachedEvaluation> {
    const model = this.models.require();
    const data = this.requireData(set === 'val' ? 'train' : 'test');
    const key = this.cacheKey(set, this.models.active, this.latestStep);
    const cached = this.cache.get(set);
    if (cached && cached.key === key) return cached;
    // While training, the latest model moves every step: show its last validation instead of racing it.
    if (cached && this.run && this.models.active === 'latest') return cached;
    const groups = set === 'val' ? data.split.val : Uint32Array.from(data.dataset.groups.keys());
    if (groups.length === 0) throw new Error(set === 'val' ? 'The validation split is empty: the dataset needs more groups with both labels.' : 'The test file has no groups.');
    const evaluation = await evaluateModel(model.cfg, model.params, data.view, data.answers, groups, this.settings.seed, (done, total) =>
      this.emit({ type: 'evalProgress', set, done, total }),
    );
    const entry = { key, groups, evaluation };
    this.cache.set(set, entry);
    return entry;
  }

  private async evaluate(set: EvalSet): Promise<void> {
    const { evaluation } = await this.evaluationFor(set);
    this.emit({
      type: 'evaluation',
      report: {
        set,
        epoch: 0,
        step: this.latestStep,
        epochTrainLoss: null,
        summary: evaluation.summary,
        curve: evaluation.curve,
        histogram: evaluation.histogram,
        isBest: false,
        origin: 'request',
        modelSlot: this.models.active,
      },
    });
  }

  private async inspect(set: EvalSet, filter: InspectFilter, position: number): Promise<void> {
    const data = this.requireData(set === 'val' ? 'train' : 'test');
    const { groups, evaluation } = await this.evaluationFor(set);
    const matching: number[] = [];
    evaluation.groups.forEach((g, k) => {
      if (filter === 'all' || g.labels[argminEnergy(g.energies)] === 0) matching.push(k);
    });
    if (matching.length === 0) {
      this.emit({ type: 'inspectGroup', set, filter, position: 0, matching: 0, groupIndex: -1, question: '', candidates: [] });
      return;
    }
    const pos = Math.min(Math.max(0, Math.floor(position)), matching.length - 1);
    const k = matching[pos];
    const group = data.dataset.groups[groups[k]];
    const scored = evaluation.groups[k];
    const maxLen = this.models.require().cfg.maxLen;
    const first = data.view.groupStart[groups[k]];
    const rank = rankGroup(scored.energies);
    const candidates: RankedCandidate[] = rank.order.map((i, r) => {
      const length = data.view.tokens.offsets[first + i + 1] - data.view.tokens.offsets[first + i];
      return {
        rank: r + 1,
        index: i,
        energy: scored.energies[i],
        deltaToBest: rank.deltaToBest[i],
        share: rank.share[i],
        label: group.candidates[i].label,
        answer: group.candidates[i].answerKey,
        text: group.candidates[i].genText,
        tokens: Math.min(length, maxLen),
        truncated: length > maxLen,
      };
    });
    this.emit({ type: 'inspectGroup', set, filter, position: pos, matching: matching.length, groupIndex: groups[k], question: group.question, candidates });
  }

  private async rerank(question: string, pasted: string): Promise<void> {
    const model = this.models.require();
    if (question.trim() === '') throw new Error('Enter the question the candidates answer (it is part of the model input).');
    const parsed = parsePastedCandidates(pasted);
    if (!parsed.ok) throw new Error(parsed.message);
    const { cfg } = model;
    // Exactly the training inputs: [CLS] + question + [SEP] + text, cut at the model's maxLen.
    const chunk = tokenizeChunk({ maxLen: cfg.maxLen, clsId: cfg.clsId, sepId: cfg.sepId, questions: [question], groupSizes: [parsed.texts.length], genTexts: parsed.texts });
    const ids = parsed.texts.map((_, i) => chunk.tokens.subarray(chunk.offsets[i], chunk.offsets[i + 1]));
    const energies = await scoreCandidates(cfg, model.params, ids);
    const rank = rankGroup(energies);
    const candidates: RankedCandidate[] = rank.order.map((i, r) => ({
      rank: r + 1,
      index: i,
      energy: energies[i],
      deltaToBest: rank.deltaToBest[i],
      share: rank.share[i],
      label: null,
      answer: candidateAnswerKey(null, parsed.texts[i]),
      text: parsed.texts[i],
      tokens: ids[i].length,
      truncated: ids[i].length === cfg.maxLen,
    }));
    this.emit({ type: 'reranked', question, candidates, modelSlot: this.models.active });
  }

  private async export(): Promise<void> {
    const model = this.models.require();
    const { fileName, bytes } = await exportModel(model, this.models.active);
    this.emit({ type: 'exported', fileName, bytes: bytes.buffer }, [bytes.buffer]);
  }

  private import(bytes: ArrayBuffer, fileName: string): void {
    const loaded = readModel(bytes, { copy: true });
    if (loaded.cfg.maxLen > TOKEN_CAP) throw new Error(`${fileName}: maxLen ${loaded.cfg.maxLen} is above the supported ${TOKEN_CAP}.`);
    if (loaded.cfg.vocabSize !== GPT2_VOCAB) {
      throw new Error(`${fileName}: the model has a vocabulary of ${loaded.cfg.vocabSize} tokens; EORM Studio feeds it GPT-2 BPE ids (${GPT2_VOCAB} tokens), which it could not read. Nothing was loaded.`);
    }
    const params = paramsFromArrays(loaded.cfg, loaded.tensors);
    this.models.set('imported', { cfg: loaded.cfg, params, source: 'imported', description: fileName, warnings: loaded.warnings, training: loaded.training ?? {} });
    this.models.active = 'imported';
    this.cache.clear();
    for (const w of loaded.warnings) this.emit({ type: 'log', level: 'warn', message: `${fileName}: ${w}` });
    this.emitModels();
  }

  private emitModels(): void {
    this.emit({ type: 'models', active: this.models.active, available: this.models.info() });
  }
}
