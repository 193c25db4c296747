/**
 * Everything the worker has told the UI, in one zustand store (its shape is engineState.ts). Two entry
 * points change it: `commandSent` (what the UI just asked for: marks loads and requests as pending) and
 * `eventReceived` (a WorkerEvent). Both are plain reducers so a test can replay a session in Node.
 */
import { createStore } from 'zustand/vanilla';
import type { Command, CommandType } from '../worker/protocols/commands.ts';
import type { DataRole } from '../worker/protocols/data.ts';
import type { WorkerEvent } from '../worker/protocols/events.ts';
import type { EvalReport, ModelSlot } from '../worker/protocols/models.ts';
import type { EngineDown } from '../client/heartbeat.ts';
import {
  type DataSlot,
  type EngineState,
  type ErrorBanner,
  type ResultModel,
  type RunView,
  type TrainStatus,
  emptyRun,
  initialEngineState,
  isRunActive,
} from './engineState.ts';
import { appendEvalReport, appendTrainPoints } from './series.ts';

export interface EngineActions {
  commandSent(cmd: Command): void;
  eventReceived(ev: WorkerEvent): void;
  /** For failures outside the protocol (the worker script failing to load or crashing). */
  reportFailure(message: string): void;
  dismissError(id: number): void;
  engineStopped(down: EngineDown): void;
  /** A new engine worker replaces the dead one: it starts from nothing, as after a reload. */
  engineRestarted(): void;
}

export type EngineStore = EngineState & EngineActions;

const LOG_LIMIT = 500;
const BANNER_LIMIT = 20;

/** Commands whose answer the UI waits for (to show "working…"). */
const AWAITED: ReadonlySet<CommandType> = new Set<CommandType>([
  'start',
  'evaluate',
  'inspect',
  'rerank',
  'selectModel',
  'export',
  'exportRun',
  'import',
  'downloadErrors',
  'picks',
  'picksDownload',
]);

let nextId = 1;

const withPending = (s: EngineState, type: CommandType, on: boolean): EngineState['pending'] =>
  s.pending[type] === on ? s.pending : { ...s.pending, [type]: on };

const resultModel = (s: EngineState, slot: ModelSlot): ResultModel => ({ slot, info: s.models.available.find((m) => m.slot === slot) ?? null });

const withSlot = (s: EngineState, role: DataRole, slot: Partial<DataSlot>): EngineState['data'] => ({
  ...s.data,
  [role]: { ...s.data[role], ...slot },
});

export function reduceCommand(s: EngineState, cmd: Command): Partial<EngineState> {
  if (cmd.type === 'loadData') {
    return {
      lastLoadRole: cmd.role,
      data: withSlot(s, cmd.role, { status: 'loading', progress: null }),
    };
  }
  if (cmd.type === 'saliency') {
    const { target, question, text } = cmd;
    return { saliency: { target, question, text, progress: null, result: null }, pending: withPending(s, 'saliency', true) };
  }
  return AWAITED.has(cmd.type) ? { pending: withPending(s, cmd.type, true) } : {};
}

function pushBanner(s: EngineState, command: CommandType | null, message: string, role?: DataRole): ErrorBanner[] {
  return [...s.errors, { id: nextId++, command, message, ...(role ? { role } : {}) }].slice(-BANNER_LIMIT);
}

/** A load of `role` succeeded: the banners of its earlier failed loads are out of date. */
const withoutLoadBanners = (s: EngineState, role: DataRole): ErrorBanner[] => s.errors.filter((e) => !(e.command === 'loadData' && e.role === role));

/** A load that failed: back to the previous summary if there is one, else an error state. */
function failedLoad(s: EngineState, message: string, role: DataRole): Partial<EngineState> {
  const prev = s.data[role];
  return { data: withSlot(s, role, { status: prev.summary ? 'ready' : 'error', progress: null, lastError: message }) };
}

function reduceTrainState(s: EngineState, ev: Extract<WorkerEvent, { type: 'trainState' }>): Partial<EngineState> {
  const status: TrainStatus = {
    state: ev.state,
    step: ev.step,
    epoch: ev.epoch,
    totalSteps: ev.totalSteps,
    totalEpochs: ev.totalEpochs,
    message: ev.message ?? null,
  };
  const startsRun = isRunActive(ev.state) && ev.state !== 'paused' && !isRunActive(s.run.status.state);
  if (startsRun) {
    // A new run: its curves replace the previous run's. Evaluations and the inspected group of the
    // old model go too (the worker discards the old trained models).
    return {
      run: emptyRun(status),
      latestEval: { val: null, test: null },
      lastEvalSet: null,
      inspect: null,
      pending: withPending(s, 'start', false),
    };
  }
  return { run: { ...s.run, status }, pending: withPending(s, 'start', false) };
}

function reduceEvaluation(s: EngineState, r: EvalReport): Partial<EngineState> {
  // Replies to `evaluate` describe the selected model at some moment: they stay out of the run's curves.
  const duringRun = r.origin === 'run';
  const out: Partial<EngineState> = {
    latestEval: { ...s.latestEval, [r.set]: { report: r, duringRun, model: resultModel(s, r.modelSlot) } },
    lastEvalSet: r.set,
    pending: withPending(s, 'evaluate', false),
  };
  if (r.set !== 'val' || !duringRun) return out;
  appendEvalReport(s.run.valSeries, r);
  const run: RunView = { ...s.run, valVersion: s.run.valVersion + 1 };
  if (r.epochTrainLoss !== null && r.epoch > run.lastLossEpoch) {
    run.epochLosses = [...run.epochLosses, r.epochTrainLoss];
    run.lastLossEpoch = r.epoch;
  }
  if (r.isBest) run.bestValBestOfN = r.summary.bestOfN;
  return { ...out, run };
}

export function reduceEvent(s: EngineState, ev: WorkerEvent): Partial<EngineState> {
  switch (ev.type) {
    case 'ready':
      return { backend: ev.backend, hardwareConcurrency: ev.hardwareConcurrency };
    case 'counters':
      return {}; // benchmarks read them from the worker's events; the UI shows none
    case 'pong':
      return {}; // the heartbeat's (client/engineConnection.ts), never state
    case 'log':
      return { log: [...s.log, { id: nextId++, level: ev.level, message: ev.message }].slice(-LOG_LIMIT) };
    case 'error': {
      const role = ev.command === 'loadData' ? (ev.role ?? s.lastLoadRole ?? 'train') : undefined;
      const out: Partial<EngineState> = { errors: pushBanner(s, ev.command, ev.message, role) };
      if (role) Object.assign(out, failedLoad(s, ev.message, role));
      if (ev.command) out.pending = withPending(s, ev.command, false);
      return out;
    }
    case 'ingestProgress':
      return { data: withSlot(s, ev.role, { status: 'loading', progress: ev }) };
    case 'evalProgress':
      return { evalProgress: ev.done < ev.total ? { set: ev.set, done: ev.done, total: ev.total } : null };
    case 'dataset':
      // A refresh (new maxLen or split) of the loaded data must not end a load that is still running.
      if (ev.reason === 'refreshed' && s.data[ev.summary.role].status === 'loading') return { data: withSlot(s, ev.summary.role, { summary: ev.summary }) };
      return {
        data: withSlot(s, ev.summary.role, {
          status: 'ready',
          summary: ev.summary,
          progress: null,
          lastError: null,
          ...(ev.reason === 'loaded' ? { note: null } : {}),
        }),
        errors: ev.reason === 'loaded' ? withoutLoadBanners(s, ev.summary.role) : s.errors,
      };
    case 'dataNote':
      return { data: withSlot(s, ev.role, { note: ev.message }) };
    case 'errorList':
      return { pending: withPending(s, 'downloadErrors', false) };
    case 'estimate':
      return { estimate: ev.estimate };
    case 'trainState':
      return reduceTrainState(s, ev);
    case 'progress': {
      const { type: _t, ...throughput } = ev;
      const status = { ...s.run.status, step: ev.step, epoch: ev.epoch, totalSteps: ev.totalSteps };
      return { run: { ...s.run, throughput, status } };
    }
    case 'metrics': {
      if (ev.points.length === 0) return {};
      appendTrainPoints(s.run.series, ev.points);
      // Points count steps from 0 while trainState/progress count steps done: status keeps the latter.
      const last = ev.points[ev.points.length - 1];
      return { run: { ...s.run, lastPoint: last, seriesVersion: s.run.seriesVersion + 1 } };
    }
    case 'evaluation':
      return reduceEvaluation(s, ev.report);
    case 'checkpoint':
      return {
        run: {
          ...s.run,
          bestValBestOfN: ev.valBestOfN,
          bestCheckpoint: { epoch: ev.epoch, step: ev.step, valBestOfN: ev.valBestOfN },
        },
      };
    case 'complete': {
      const { type: _t, ...completion } = ev;
      const best = ev.bestValBestOfN ?? s.run.bestValBestOfN;
      return { run: { ...s.run, completion, bestValBestOfN: best } };
    }
    case 'models': {
      let pending = withPending(s, 'selectModel', false);
      pending = withPending({ ...s, pending }, 'import', false);
      return { models: { active: ev.active, available: ev.available }, pending };
    }
    case 'inspectGroup': {
      // The worker answers Inspect with the model selected when it answers, which the store already knows.
      const { type: _t, ...view } = ev;
      const model = s.models.active ? resultModel(s, s.models.active) : null;
      return { inspect: { ...view, model }, pending: withPending(s, 'inspect', false) };
    }
    case 'reranked': {
      const { type: _t, modelSlot, ...view } = ev;
      return { rerank: { ...view, model: resultModel(s, modelSlot) }, pending: withPending(s, 'rerank', false) };
    }
    case 'saliency': {
      // An answer to an earlier request (another candidate was asked for since) is dropped.
      const { type: _t, target, modelSlot, ...result } = ev;
      if (s.saliency?.target.id !== target.id) return {};
      return { saliency: { ...s.saliency, result: { ...result, model: resultModel(s, modelSlot) } }, pending: withPending(s, 'saliency', false) };
    }
    case 'saliencyProgress':
      if (s.saliency?.target.id !== ev.target.id) return {};
      return { saliency: { ...s.saliency, progress: { done: ev.done, total: ev.total } } };
    case 'exported':
      if (ev.what === 'picks') return { pending: withPending(s, 'picksDownload', false) };
      return { pending: withPending(s, ev.what === 'run' ? 'exportRun' : 'export', false) };
    case 'picksProgress': {
      const { type: _t, ...picks } = ev;
      return { picks, pending: withPending(s, 'picks', false) };
    }
    case 'runs':
      return { savedRuns: ev.runs };
    case 'storedDatasets':
      return { storedDatasets: ev.datasets };
    case 'runHistory': {
      const { type: _t, runId, ...history } = ev;
      return { runHistories: { ...s.runHistories, [runId]: history } };
    }
  }
}

/** What the dead worker was doing is over: no reply will come, and a run on it has stopped (its last checkpoint is stored). */
export function reduceEngineDown(s: EngineState, down: EngineDown): Partial<EngineState> {
  const stopped = 'The engine stopped.';
  const data = { ...s.data };
  for (const role of ['train', 'test'] as const) {
    if (data[role].status === 'loading') data[role] = { ...data[role], status: data[role].summary ? 'ready' : 'error', progress: null, lastError: stopped };
  }
  const status = s.run.status;
  const run = isRunActive(status.state)
    ? { ...s.run, status: { ...status, state: 'error' as const, message: `${stopped} This run can be resumed from its last checkpoint once it is restarted.` } }
    : s.run;
  return { engineDown: down, pending: {}, evalProgress: null, data, run };
}

/** The new worker starts from nothing and restores what storage holds; the log is the user's record and stays. */
export function reduceEngineRestarted(s: EngineState): EngineState {
  return { ...initialEngineState(), log: s.log };
}

export function createEngineStore() {
  return createStore<EngineStore>()((set) => ({
    ...initialEngineState(),
    commandSent: (cmd) => set((s) => reduceCommand(s, cmd)),
    eventReceived: (ev) => set((s) => reduceEvent(s, ev)),
    reportFailure: (message) => set((s) => ({ errors: pushBanner(s, null, message) })),
    dismissError: (id) => set((s) => ({ errors: s.errors.filter((e) => e.id !== id) })),
    engineStopped: (down) => set((s) => reduceEngineDown(s, down)),
    engineRestarted: () => set((s) => reduceEngineRestarted(s)),
  }));
}

/** The app's one engine store. */
export const engineStore = createEngineStore();
