import { candidateAnswerKey } from '../engine/data/answers.ts';
import { formatLineErrors } from '../engine/data/lineErrors.ts';
import { parsePastedCandidates } from '../engine/data/pasted.ts';
import { DEFAULT_TRAIN_FRACTION, splitGroups } from '../engine/data/split.ts';
import { type RecordedSplit, describeSplit, readRecordedSplit, shortHash } from '../engine/data/splitRecord.ts';
import { tokenizeChunk } from '../engine/data/tokenize.ts';
import type { TokenizePool } from '../engine/data/tokenizePool.ts';
import { readModel } from '../engine/io/modelFile.ts';
import { GPT2_EOT, GPT2_VOCAB, type ModelConfig, makeConfig } from '../engine/model/config.ts';
import { type Params, cloneParams, disposeParams, initParams, paramsFromArrays } from '../engine/model/params.ts';
import { DEFAULT_PASS_BUDGET_BYTES, autoMicroBatch } from '../engine/train/autoMicroBatch.ts';
import { estimateMemory } from '../engine/train/estimate.ts';
import type { Evaluation } from '../engine/train/evaluation.ts';
import { evaluateModel } from '../engine/train/evaluation.ts';
import type { RunCheckpoint } from '../engine/train/checkpoint.ts';
import { runTraining } from '../engine/train/loop.ts';
import { bestOfNScore, rankGroup } from '../engine/train/metricsRank.ts';
import { RunControl } from '../engine/train/runControl.ts';
import { scoreCandidates } from '../engine/train/scoring.ts';
import type { ScoringPeer } from '../engine/train/scoringPeer.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from '../engine/train/settings.ts';
import type { BackendInfo } from './backend.ts';
import { type LoadedData, STORED_MAX_BYTES, TOKEN_CAP, loadData, readWhole, summarize } from './dataLoader.ts';
import { exportModel } from './exportModel.ts';
import { ModelSlots, type SlotModel } from './modelSlots.ts';
import type { Command, DataRole, DataSource, DatasetSummary, EvalReport, EvalSet, IngestProgressEvent, InspectFilter, ModelSlot, RankedCandidate, WorkerEvent } from './protocol.ts';
import type { RunRecorder } from './runRecorder.ts';
import { SavedRuns } from './savedRuns.ts';
import type { StoredData, StoredRun } from './storage/db.ts';
import { contentHashOfKey, datasetKey, hashBytes, isCurrentDatasetKey } from './storage/datasetKey.ts';
import { Persister } from './storage/persister.ts';
import { lockRun } from './storage/runLocks.ts';

type Emit = (event: WorkerEvent, transfer?: Transferable[]) => void;

/** An evaluation of one set by one model state, kept for Inspect. */
interface CachedEvaluation {
  /** Set, data version, slot and revision: what was evaluated (see modelKey). */
  model: string;
  /** Optimizer steps of the latest model when evaluated; 0 for the other slots. */
  step: number;
  /** The data scored: Inspect takes questions and texts from it, never from data loaded since. */
  data: LoadedData;
  groups: Uint32Array;
  maxLen: number;
  evaluation: Evaluation;
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

const roleOf = (set: EvalSet): DataRole => (set === 'val' ? 'train' : 'test');

/**
 * Everything the worker holds: loaded data, the model slots, the training run. Each command handler
 * either finishes or throws; a throw becomes an `error` event and leaves the state as it was.
 */
export class Session {
  private data: Partial<Record<DataRole, LoadedData>> = {};
  /** Bumped whenever a role's data or its split changes: part of the cache key, and how a command notices the data moved under it. */
  private dataVersion: Record<DataRole, number> = { train: 0, test: 0 };
  /** The newest load asked for per role: an older one that finishes later is set aside. */
  private loads: Record<DataRole, number> = { train: 0, test: 0 };
  private readonly models = new ModelSlots();
  private run: { control: RunControl; settings: TrainSettings; runId: string; abandon(message: string): void } | null = null;
  private settings: TrainSettings = DEFAULT_TRAIN_SETTINGS;
  /** Optimizer steps applied to the latest model since it was created (as far as reported): tells whether a cached evaluation is stale. */
  private latestStep = 0;
  private cache = new Map<EvalSet, CachedEvaluation>();
  /** maxLen and split seed each dataset's last summary was made with. */
  private summarized = new WeakMap<LoadedData, string>();

  constructor(
    private readonly emit: Emit,
    private readonly pool: () => TokenizePool,
    private readonly backend: () => BackendInfo | null,
    private readonly persist: Persister = new Persister(Promise.resolve(null), () => undefined),
    /** Other threads that score batches too (the WASM backend's idle cores); none in tests. */
    private readonly scoringPeers: () => ReadonlyArray<ScoringPeer> = () => [],
  ) {
    this.saved = new SavedRuns(persist, emit);
  }

  private readonly saved: SavedRuns;

  /**
   * At start: lists the saved runs (one still marked running or paused was cut off with its page) and
   * brings back the last training file, unless one was loaded meanwhile.
   */
  async restore(): Promise<void> {
    const ticket = this.loads.train;
    await this.saved.load();
    const last = await this.persist.read('the last training file', (db) => db.lastTrainDataset());
    // One stored by an older app (other reading rules) is not brought back: loading the file reads it anew.
    if (last && isCurrentDatasetKey(last.key, TOKEN_CAP) && this.loads.train === ticket && !this.data.train) this.installTrain(last.key, last.data, this.settings.seed);
    await this.saved.emitDatasets();
    // Last: the runs list arriving tells the UI that the restore is over.
    this.saved.emitRuns();
  }

  /**
   * The GPU is gone: a run on it can neither step nor stop cleanly, so it is let go (listed as
   * interrupted, its lock released) and the user is told how to go on from its last checkpoint.
   */
  deviceLost(message: string): void {
    const run = this.run;
    if (!run) {
      this.emit({ type: 'error', command: null, message: `${message} Choose another backend in the header (or reload the page); an interrupted run can be resumed from its last checkpoint under Saved runs.` });
      return;
    }
    run.abandon(message);
  }

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
      case 'resumeRun':
        return this.resumeRun(cmd.runId);
      case 'deleteRun':
        return this.saved.deleteRun(cmd.runId, this.run?.runId ?? null);
      case 'deleteCheckpoint':
        return this.saved.deleteCheckpoint(cmd.runId, this.run?.runId ?? null);
      case 'deleteDataset':
        return this.saved.deleteDataset(cmd.key);
      case 'runHistory':
        return this.saved.history(cmd.runId);
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
    const ticket = ++this.loads[role];
    const newest = () => this.loads[role] === ticket;
    let loaded: LoadedData;
    try {
      loaded = await this.loadOrRecall(role, source, newest);
    } catch (e) {
      // A newer pick of this role is under way: its outcome is the one the panel waits for.
      if (!newest()) return;
      throw e;
    }
    if (!newest()) {
      this.emit({ type: 'log', level: 'info', message: `${loaded.name} finished loading after a newer file was picked; it was set aside.` });
      return;
    }
    // Start may have run while the file loaded: the run keeps the data it started with.
    if (role === 'train' && this.run) throw new Error(`${loaded.name} finished loading after training started; the run keeps its data. Stop it, then load the file again.`);
    this.data[role] = loaded;
    this.dataVersion[role]++;
    this.cache.delete(role === 'train' ? 'val' : 'test');
    this.emit({ type: 'dataset', summary: this.summary(loaded), reason: 'loaded' });
  }

  /** Files up to this many bytes are kept in storage (tests lower it); larger ones are hashed as they stream, and not kept. */
  storedMaxBytes = STORED_MAX_BYTES;

  /** A file tokenized before (same bytes, tokenizer, cap and rules) comes back from storage; a new one is loaded and stored. */
  private async loadOrRecall(role: DataRole, source: DataSource, newest: () => boolean): Promise<LoadedData> {
    const progress = (e: IngestProgressEvent) => {
      if (newest()) this.emit(e);
    };
    const whole = (await this.persist.available()) ? await readWhole(source, this.storedMaxBytes) : null;
    if (!whole) return loadData(role, source, this.pool(), this.settings.seed, progress);
    const contentHash = await hashBytes(whole.bytes);
    const key = datasetKey(contentHash, TOKEN_CAP);
    const stored = await this.persist.read('a stored dataset', (db) => db.getDataset(key));
    if (stored) {
      if (role === 'train') this.persist.write('the last training file', (db) => db.markLastTrain(key));
      return { ...stored, name: whole.file.name, role, key, contentHash, split: splitGroups(stored.view, { seed: this.settings.seed }), splitSeed: this.settings.seed };
    }
    const loaded = await loadData(role, { kind: 'file', file: whole.file }, this.pool(), this.settings.seed, progress, contentHash);
    const { split: _s, splitSeed: _k, role: _r, key: _key, ...data } = loaded;
    this.persist.write(
      `the tokenized ${loaded.name}`,
      (db) => (role === 'train' ? db.putTrainDataset(key, data) : db.putDataset(key, data)),
      () => void this.saved.emitDatasets(),
    );
    return loaded;
  }

  /** Stored training data back in the train role (after a reload, or for a resumed run). */
  private installTrain(key: string, stored: StoredData, seed: number): LoadedData {
    this.loads.train++;
    // Entries stored by an older app hold no contentHash; every key starts with it.
    const contentHash = contentHashOfKey(key) ?? stored.contentHash;
    const data: LoadedData = { ...stored, role: 'train', key, contentHash, split: splitGroups(stored.view, { seed }), splitSeed: seed };
    this.data.train = data;
    this.dataVersion.train++;
    this.cache.delete('val');
    this.emit({ type: 'dataset', summary: this.summary(data), reason: 'loaded' });
    return data;
  }

  /** The panel's figures, judged against the current maxLen and split; remembered so refreshes happen only on change. */
  private summary(d: LoadedData): DatasetSummary {
    const summary = summarize(d, this.settings.model.maxLen);
    this.summarized.set(d, `${this.settings.model.maxLen}:${d.splitSeed}:${d.splitFraction}`);
    return summary;
  }

  /** Truncation counts depend on maxLen, the split on the seed: re-send a summary when either moved. */
  private refreshSummaries(): void {
    for (const d of Object.values(this.data)) {
      if (this.summarized.get(d) !== `${this.settings.model.maxLen}:${d.splitSeed}:${d.splitFraction}`) this.emit({ type: 'dataset', summary: this.summary(d), reason: 'refreshed' });
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

  private start(settings: TrainSettings): void {
    if (this.run) throw new Error('Training is already running: pause or stop it first.');
    const loaded = this.requireData('train');
    this.settings = settings;
    const from = settings.init === 'continue' ? this.continueFrom(loaded, settings.seed) : null;
    const cfg = from?.cfg ?? this.modelConfig(settings);
    const params = from?.params ?? initParams(cfg, settings.seed);
    const data = this.withSplit(loaded, from?.split.seed ?? settings.seed, from?.split.trainFraction);
    const record: StoredRun = {
      id: crypto.randomUUID(),
      createdAt: Date.now(),
      settings,
      cfg,
      datasetKey: data.key ?? '',
      datasetName: data.name,
      splitSeed: data.splitSeed,
      split: splitOf(data),
      totalSteps: settings.epochs * Math.ceil(data.split.train.length / Math.max(1, settings.groupsPerStep)),
      state: 'running',
      checkpointStep: 0,
      points: [],
      evaluations: [],
      bestValBestOfN: null,
    };
    this.persist.write('the run', (db) => db.putRun(record));
    const lock = lockRun(record.id);
    this.launch(settings, cfg, params, data, this.saved.recorder(record), null, () => void lock.then((release) => release?.()));
  }

  /** Continues a saved run from its last checkpoint, on its own data (restored from storage when another file is loaded). */
  private async resumeRun(id: string): Promise<void> {
    if (this.run) throw new Error('Training is already running: stop it before resuming another run.');
    const { record, checkpoint, release } = await this.saved.takeForResume(id);
    try {
      await this.resumeLocked(record, checkpoint, release);
    } catch (e) {
      release();
      throw e;
    }
  }

  private async resumeLocked(record: StoredRun, checkpoint: RunCheckpoint, release: () => void): Promise<void> {
    let data = this.data.train;
    if (!data || data.key !== record.datasetKey) {
      const file = contentHashOfKey(record.datasetKey);
      const stored = file === null ? null : await this.persist.read('its dataset', (db) => db.getDataset(record.datasetKey));
      if (this.run) throw new Error('Training started meanwhile: stop it before resuming another run.');
      if (stored) {
        data = this.installTrain(record.datasetKey, stored, record.splitSeed);
      } else if (file === null) {
        throw new Error(`This run on ${record.datasetName} began before every training file was given an identity (files over 256 MB had none), so the file it trained on cannot be checked and the run cannot be resumed. Start a new run on that file instead.`);
      } else if (data?.contentHash !== file) {
        throw new Error(`The file this run trained on (${record.datasetName}, ${shortHash(file)}) is not loaded, and not stored in this browser (files over 256 MB never are): load ${record.datasetName} again, then resume.`);
      } else {
        // The same bytes, read by an older app's rules (or another token cap) when the run began.
        this.emit({ type: 'log', level: 'warn', message: `${record.datasetName} was read with an older version of the app's reading rules when this run began: it resumes on the file as read now, so its tokens or its split may differ slightly from what it trained on.` });
      }
    }
    if (this.run) throw new Error('Training started meanwhile: stop it before resuming another run.');
    data = this.withSplit(data, record.splitSeed, record.split?.trainFraction);
    this.settings = record.settings;
    record.points = record.points.filter((p) => p.step < checkpoint.step);
    record.evaluations = record.evaluations.filter((e) => e.step <= checkpoint.step);
    this.emit({ type: 'log', level: 'info', message: `Resuming the run on ${record.datasetName} from its checkpoint at step ${checkpoint.step} of ${record.totalSteps}.` });
    const recorder = this.saved.recorder(record);
    recorder.resumed();
    this.launch(record.settings, record.cfg, paramsFromArrays(record.cfg, checkpoint.params), data, recorder, checkpoint, release);
  }

  /** `ended` runs once the run is over, whatever the outcome (it releases the run's lock). */
  private launch(settings: TrainSettings, cfg: ModelConfig, params: Params, data: LoadedData, recorder: RunRecorder, resume: RunCheckpoint | null, ended: () => void): void {
    this.refreshSummaries();
    this.models.clearTrained();
    this.models.set('latest', { cfg, params, source: 'trained', description: 'training…', warnings: [], training: { splitSeed: data.splitSeed, split: splitOf(data) } });
    this.models.active = 'latest';
    this.latestStep = resume?.step ?? 0;
    this.cache.clear();
    this.emitModels();
    const control = new RunControl();
    // Set when the run was let go (lost device): whatever its loop still does is no longer reported.
    let abandoned = false;
    const abandon = (message: string) => {
      abandoned = true;
      this.run = null;
      recorder.end('interrupted');
      ended();
      const saved = recorder.info.checkpointStep;
      state('error', this.latestStep, 0, message);
      this.emit({
        type: 'error',
        command: null,
        message: `${message} Training stopped at step ${this.latestStep}. ${
          saved > 0 ? `Its last checkpoint (step ${saved}) is saved: choose another backend in the header (or reload the page), then Resume it under Saved runs.` : 'No checkpoint of it was saved yet.'
        }`,
      });
      this.emitModels();
    };
    this.run = { control, settings, runId: recorder.id, abandon };
    const totalSteps = settings.epochs * Math.ceil(data.split.train.length / Math.max(1, settings.groupsPerStep));
    const state = (s: 'compiling' | 'training' | 'paused' | 'done' | 'error', step: number, epoch: number, message?: string) =>
      this.emit({ type: 'trainState', state: s, step, epoch, totalSteps, totalEpochs: settings.epochs, message });
    // `split` is what continuing and python/'s --init honour; splitSeed stays for older readers.
    const summary = (extra: Record<string, unknown>) => ({ dataset: data.name, trainGroups: data.split.train.length, valGroups: data.split.val.length, splitSeed: data.splitSeed, split: splitOf(data), settings, ...extra });
    // Runs in the background: pause/resume/stop commands arrive while it awaits the GPU.
    void runTraining(
      {
        cfg,
        params,
        view: data.view,
        answers: data.answers,
        split: data.split,
        settings,
        passBudgetBytes: this.passBudget(),
        // A run resumes with the embedding update it was saved with, whichever backend runs it now.
        lazyEmbedding: resume ? resume.optimizer.lazy !== null : undefined,
        resumeFrom: resume ?? undefined,
        scoringPeers: this.scoringPeers(),
      },
      {
        state: (s, step, epoch, message) => {
          if (abandoned) return;
          if (s !== 'compiling') recorder.setState(s === 'paused' ? 'paused' : 'running');
          state(s, step, epoch, message);
        },
        points: (points) => {
          if (abandoned) return;
          this.latestStep = points[points.length - 1].step + 1;
          recorder.points(points);
          this.emit({ type: 'metrics', points });
        },
        checkpoint: (c) => {
          if (!abandoned) recorder.checkpoint(c);
        },
        progress: (p) => {
          if (!abandoned) this.emit({ type: 'progress', ...p });
        },
        evalProgress: (done, total) => {
          if (!abandoned) this.emit({ type: 'evalProgress', set: 'val', done, total });
        },
        evaluation: (e) => {
          if (abandoned) return;
          const { summary: s, curve, histogram } = e.evaluation;
          const report: EvalReport = { set: 'val', epoch: e.epoch, step: e.step, epochTrainLoss: e.epochTrainLoss, summary: s, curve, histogram, isBest: e.isBest, origin: 'run', modelSlot: 'latest' };
          this.cache.set('val', { model: this.modelKey('val', 'latest'), step: e.step, data, groups: data.split.val, maxLen: cfg.maxLen, evaluation: e.evaluation });
          const latest = this.models.get('latest')!;
          latest.description = `epoch ${e.epoch}, step ${e.step}, val Best-of-N ${s.bestOfN.toFixed(3)}`;
          latest.training = summary({ epoch: e.epoch, step: e.step, valBestOfN: s.bestOfN, epochTrainLoss: e.epochTrainLoss });
          if (e.isBest) {
            this.models.snapshotBest(`best: ${latest.description}`, latest.training);
            this.emit({ type: 'checkpoint', slot: 'best', epoch: e.epoch, step: e.step, valBestOfN: s.bestOfN });
          }
          recorder.evaluation(report);
          this.emit({ type: 'evaluation', report });
          this.emitModels();
        },
      },
      control,
    )
      .then((r) => {
        if (abandoned) return;
        // A stopped run can be resumed from its last checkpoint, as a paused one.
        recorder.end(r.reason === 'finished' ? 'done' : 'paused');
        this.latestStep = r.steps;
        state('done', r.steps, settings.epochs);
        this.emit({ type: 'complete', reason: r.reason, steps: r.steps, bestValBestOfN: r.bestValBestOfN });
      })
      .catch((err: unknown) => {
        if (abandoned) return;
        recorder.end('interrupted');
        state('error', this.latestStep, 0, String((err as Error).message ?? err));
        this.emit({ type: 'error', command: 'start', message: `Training stopped: ${(err as Error).message ?? String(err)}` });
      })
      .finally(() => {
        if (abandoned) return;
        this.run = null;
        ended();
        this.emitModels();
      });
    // runTraining reported 'compiling' before its first await, which cleared the curves: a resumed run's history comes back now.
    if (resume) {
      const { points, evaluations } = recorder.history;
      if (points.length > 0) this.emit({ type: 'metrics', points });
      for (const report of evaluations) this.emit({ type: 'evaluation', report });
    }
  }

  /**
   * Trainable copy of the selected model, and the split to train it with: the one it was trained with
   * (seed and fraction) when that was this file, so validation holds none of its training groups; the
   * run's own when it was another file. Says so whenever it cannot be sure.
   */
  private continueFrom(loaded: LoadedData, seed: number): { cfg: ModelConfig; params: Params; split: Pick<RecordedSplit, 'seed' | 'trainFraction'> } {
    const from = this.models.require();
    const slot = this.models.active;
    const own = { seed, trainFraction: DEFAULT_TRAIN_FRACTION };
    // An imported model is named by its file; the others by their slot.
    const Named = slot === 'imported' ? from.description : `The ${slot} model`;
    const warn = (message: string) => this.emit({ type: 'log', level: 'warn', message });
    this.emit({ type: 'log', level: 'info', message: `Continuing from the ${slot} model (its config wins over the form's model fields).` });
    const { split: trained, problem } = readRecordedSplit(from.training);
    const pick = (split: Pick<RecordedSplit, 'seed' | 'trainFraction'>) => ({ cfg: from.cfg, params: cloneParams(from.params, true), split });
    if (problem) {
      warn(`${Named} records a split that cannot be read (${problem}): this run uses its own split (${describeSplit(own)}); if the model was trained on this file, validation may hold groups it trained on.`);
      return pick(own);
    }
    if (trained === null) {
      warn(`${Named} does not record the split it was trained with: if it was trained on this data with another seed, validation may hold groups it trained on.`);
      return pick(own);
    }
    const kept = `kept its split (${describeSplit(trained)})`;
    if (trained.dataset !== null && trained.dataset !== loaded.contentHash) {
      warn(
        `${Named} was trained on another file (${shortHash(trained.dataset)}): its split does not apply to ${loaded.name}, so validation may hold groups it trained on — figures are not comparable. This run uses its own split (${describeSplit(own)}).`,
      );
      return pick(own);
    }
    if (trained.dataset === null) {
      warn(`${Named} does not record which file it was trained on: this run ${kept}, which keeps its training groups out of validation only if that file was ${loaded.name}; otherwise figures are not comparable.`);
    } else {
      this.emit({ type: 'log', level: 'info', message: `Keeping the ${slot} model's split (${describeSplit(trained)}): it was trained on this file, so validation holds none of its training groups; seed ${seed} sets the order, dropout and nothing else.` });
    }
    return pick(trained);
  }

  /** The training data split with `seed` and `trainFraction`: as it is, or a re-split copy (a command still reading the old split keeps it). */
  private withSplit(d: LoadedData, seed: number, trainFraction = DEFAULT_TRAIN_FRACTION): LoadedData {
    if (d.splitSeed === seed && (d.splitFraction ?? DEFAULT_TRAIN_FRACTION) === trainFraction) return d;
    const next = { ...d, split: splitGroups(d.view, { seed, trainFraction }), splitSeed: seed, splitFraction: trainFraction };
    this.data.train = next;
    this.dataVersion.train++;
    this.cache.delete('val');
    return next;
  }

  /** What an evaluation of `set` by the model in `slot` depends on, the latest model's step aside. */
  private modelKey(set: EvalSet, slot: ModelSlot): string {
    return `${set}:${this.dataVersion[roleOf(set)]}:${slot}:${this.models.revision(slot) ?? -1}`;
  }

  /** The selected model for a command that awaits: a lease on its slot, or for the model in training a copy taken between two steps. */
  private async read(): Promise<Reading> {
    const lease = this.models.acquire();
    const run = this.run;
    if (lease.slot !== 'latest' || !run) {
      return { slot: lease.slot, revision: lease.revision, model: lease.model, params: lease.model.params, step: lease.slot === 'latest' ? this.latestStep : 0, release: lease.release };
    }
    lease.release();
    const snap = await run.control.snapshot();
    return { slot: 'latest', revision: lease.revision, model: atStep(lease.model, snap.step), params: snap.params, step: snap.step, release: () => disposeParams(snap.params) };
  }

  /**
   * Runs `work` on the selected model (and the data of `role`, which `work` reads before its first
   * await), then checks that neither was replaced meanwhile: an import, a new run or best checkpoint,
   * another selection, a load. If one was, the answer would describe what is no longer there, so the
   * work starts over on the new ones. `deliver` runs right after the check, in the same microtask, so
   * nothing can replace the model between the check and the answer.
   */
  private async onCurrent<T>(role: DataRole | null, work: (m: Reading) => Promise<T>, deliver: (result: T, slot: ModelSlot) => void): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const m = await this.read();
      const version = role ? this.dataVersion[role] : 0;
      let result: T;
      try {
        result = await work(m);
      } finally {
        m.release();
      }
      const sameModel = this.models.active === m.slot && this.models.revision(m.slot) === m.revision;
      if (sameModel && (!role || this.dataVersion[role] === version)) return deliver(result, m.slot);
      if (attempt === MAX_TRIES) throw new Error(`The ${sameModel ? 'data' : 'selected model'} kept changing while this ran; try again.`);
    }
  }

  /** The cached evaluation of the selected model on `set`, if it still describes that model. */
  private cachedEvaluation(set: EvalSet): CachedEvaluation | null {
    const c = this.cache.get(set);
    const slot = this.models.active;
    if (!c || c.model !== this.modelKey(set, slot)) return null;
    if (slot !== 'latest' || c.step === this.latestStep) return c;
    // While training, the latest model moves every step: its last evaluation stands for it instead of racing it.
    return this.run ? c : null;
  }

  /** Hands `use` the evaluation of the selected model on `set`: cached when neither the model nor the data changed since, else computed now. */
  private async withEvaluation(set: EvalSet, use: (e: CachedEvaluation) => void): Promise<void> {
    const cached = this.cachedEvaluation(set);
    if (cached) return use(cached);
    const role = roleOf(set);
    await this.onCurrent(
      role,
      async (m) => {
        const data = this.requireData(role);
        const groups = set === 'val' ? data.split.val : Uint32Array.from(data.dataset.groups.keys());
        if (groups.length === 0) throw new Error(set === 'val' ? 'The validation split is empty: the dataset needs more groups with both labels.' : 'The test file has no groups.');
        const evaluation = await evaluateModel(m.model.cfg, m.params, data.view, data.answers, groups, this.settings.seed, {
          onProgress: (done, total) => this.emit({ type: 'evalProgress', set, done, total }),
          peers: this.scoringPeers(),
        });
        return { step: m.step, data, groups, maxLen: m.model.cfg.maxLen, evaluation };
      },
      (result, slot) => {
        const entry = { ...result, model: this.modelKey(set, slot) };
        this.cache.set(set, entry);
        use(entry);
      },
    );
  }

  private evaluate(set: EvalSet): Promise<void> {
    return this.withEvaluation(set, ({ evaluation, step }) =>
      this.emit({
        type: 'evaluation',
        report: {
          set,
          epoch: 0,
          step,
          epochTrainLoss: null,
          summary: evaluation.summary,
          curve: evaluation.curve,
          histogram: evaluation.histogram,
          isBest: false,
          origin: 'request',
          modelSlot: this.models.active,
        },
      }),
    );
  }

  private inspect(set: EvalSet, filter: InspectFilter, position: number): Promise<void> {
    return this.withEvaluation(set, (e) => this.showGroup(set, filter, position, e));
  }

  /** One group of an evaluation, ranked, as Inspect shows it. */
  private showGroup(set: EvalSet, filter: InspectFilter, position: number, { data, groups, evaluation, maxLen }: CachedEvaluation): void {
    // 'Top choice wrong': a wrong candidate is among the lowest energies (Best-of-N below 1 for the group).
    const matching: number[] = [];
    evaluation.groups.forEach((g, k) => {
      if (filter === 'all' || bestOfNScore(g.energies, g.labels) < 1) matching.push(k);
    });
    if (matching.length === 0) {
      this.emit({ type: 'inspectGroup', set, filter, position: 0, matching: 0, groupIndex: -1, question: '', candidates: [] });
      return;
    }
    const pos = Math.min(Math.max(0, Math.floor(position)), matching.length - 1);
    const k = matching[pos];
    const group = data.dataset.groups[groups[k]];
    const scored = evaluation.groups[k];
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

  /** An empty question is allowed: the input is then [CLS] [SEP] answer, which the reference scores too (the panel says so). */
  private async rerank(question: string, pasted: string): Promise<void> {
    const parsed = parsePastedCandidates(pasted);
    if (!parsed.ok) throw new Error(parsed.message);
    const { texts } = parsed;
    await this.onCurrent(
      null,
      async (m) => {
        const { cfg } = m.model;
        // Exactly the training inputs: [CLS] + question + [SEP] + text, cut at the model's maxLen. One id
        // more tells an input that was cut from one exactly maxLen long.
        const chunk = tokenizeChunk({ maxLen: cfg.maxLen + 1, clsId: cfg.clsId, sepId: cfg.sepId, questions: [question], groupSizes: [texts.length], genTexts: texts });
        const full = texts.map((_, i) => chunk.tokens.subarray(chunk.offsets[i], chunk.offsets[i + 1]));
        const ids = full.map((t) => t.subarray(0, cfg.maxLen));
        return { full, ids, energies: await scoreCandidates(cfg, m.params, ids) };
      },
      ({ full, ids, energies }, slot) => {
        const rank = rankGroup(energies);
        const candidates: RankedCandidate[] = rank.order.map((i, r) => ({
          rank: r + 1,
          index: i,
          energy: energies[i],
          deltaToBest: rank.deltaToBest[i],
          share: rank.share[i],
          label: null,
          answer: candidateAnswerKey(null, texts[i]),
          text: texts[i],
          tokens: ids[i].length,
          truncated: full[i].length > ids[i].length,
        }));
        this.emit({ type: 'reranked', question, candidates, modelSlot: slot });
      },
    );
  }

  private export(): Promise<void> {
    return this.onCurrent(
      null,
      (m) => exportModel(m.model, m.params, m.slot),
      ({ fileName, bytes }) => this.emit({ type: 'exported', fileName, bytes: bytes.buffer }, [bytes.buffer]),
    );
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
    for (const w of loaded.warnings) this.emit({ type: 'log', level: 'warn', message: `${fileName}: ${w}` });
    this.emitModels();
  }

  private emitModels(): void {
    this.emit({ type: 'models', active: this.models.active, available: this.models.info() });
  }
}

/** The split `d` holds, as model files and stored runs record it. */
function splitOf(d: LoadedData): RecordedSplit {
  return { seed: d.splitSeed, trainFraction: d.splitFraction ?? DEFAULT_TRAIN_FRACTION, dataset: d.contentHash };
}

/** The model in training as of a snapshot at `step`: its last validation's figures describe another step, so they move aside. */
function atStep(model: SlotModel, step: number): SlotModel {
  const { epoch, step: validated, valBestOfN, epochTrainLoss, ...rest } = model.training;
  if (validated === step) return model;
  return { ...model, description: `training, step ${step}`, training: { ...rest, step, lastValidation: { epoch, step: validated, valBestOfN, epochTrainLoss } } };
}
