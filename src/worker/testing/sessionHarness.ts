/** Test support: a Session in-process, every event it emits recorded; the small settings and sample data its tests train on. */
import { readFileSync } from 'node:fs';
import { inProcessPool } from '../../engine/data/tokenize/tokenizePool.ts';
import { writeModel } from '../../engine/io/modelFile.ts';
import { makeConfig, paramShapes } from '../../engine/model/config.ts';
import { GPT2_EOT, GPT2_VOCAB } from '../../engine/data/tokenize/gpt2.ts';
import { disposeParams, initParams, paramsToArrays } from '../../engine/model/params.ts';
import { DEFAULT_TRAIN_SETTINGS, type TrainSettings } from '../../engine/train/settings.ts';
import type { Command } from '../protocols/commands.ts';
import type { WorkerEvent } from '../protocols/events.ts';
import { Session } from '../session.ts';
import type { Persister } from '../storage/persister.ts';
import { activeProfile } from '../../engine/backend/profile.ts';

export type Harness = ReturnType<typeof harness>;

/**
 * `onEvent` sees each event as it is emitted, so a test can answer within the same task (as a fast UI could),
 * e.g. with `send` (a command not awaited). `persist`: the browser storage to use (e.g. over fake-indexeddb); none by default.
 */
export function harness(onEvent?: (e: WorkerEvent, send: (cmd: Command) => void) => void, persist?: Persister) {
  const events: WorkerEvent[] = [];
  const send = (cmd: Command) => void session.handle(cmd);
  const session: Session = new Session(
    (e) => {
      events.push(e);
      onEvent?.(e, send);
    },
    () => inProcessPool(),
    () => null,
    persist,
  );
  const run = async (cmd: Command) => session.handle(cmd);
  const last = <T extends WorkerEvent['type']>(type: T) => events.filter((e) => e.type === type).pop() as Extract<WorkerEvent, { type: T }> | undefined;
  const all = <T extends WorkerEvent['type']>(type: T) => events.filter((e) => e.type === type) as Array<Extract<WorkerEvent, { type: T }>>;
  /** Resolves with the end of the `nth` run: its `complete` event, or throws with the error that ended it. */
  const runEnd = async (nth = 1) => {
    for (;;) {
      const end = events.filter((e) => e.type === 'complete' || (e.type === 'error' && e.command === 'start'))[nth - 1];
      if (end?.type === 'complete') return end;
      if (end?.type === 'error') throw new Error(end.message);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  /** Resolves once an event matching `pred` has been emitted. */
  const until = async (pred: (e: WorkerEvent) => boolean) => {
    while (!events.some(pred)) await new Promise((r) => setTimeout(r, 5));
  };
  return { session, events, run, last, all, runEnd, until };
}

/** Settings for a very small model (the GPT-2 vocabulary stays: the session always uses it) at lr 1e-2; `over`: what a test sets besides. */
/** Every group Inspect lists for the validation set, ascending: the groups the last evaluation scored. */
export async function inspectedValGroups(h: Harness): Promise<number[]> {
  const shown: number[] = [];
  await h.run({ type: 'inspect', set: 'val', filter: 'all', position: 0 });
  const n = h.last('inspectGroup')!.matching;
  for (let p = 0; p < n; p++) {
    await h.run({ type: 'inspect', set: 'val', filter: 'all', position: p });
    shown.push(h.last('inspectGroup')!.groupIndex);
  }
  return shown.sort((a, b) => a - b);
}

export const tinySettings = (over: Partial<TrainSettings>): TrainSettings => ({
  ...DEFAULT_TRAIN_SETTINGS,
  preset: 'custom',
  model: { dModel: 8, nHeads: 2, nLayers: 1, ffnDim: 16, dropout: 0.1, maxLen: 32, positional: 'none' },
  lr: 1e-2,
  ...over,
});

let sample: string[] | undefined;
/** Lines `start` to `end` (exclusive) of the app's sample file, joined: four candidates a question, so 48 lines are 12 groups. */
export function sampleLines(start: number, end: number): string {
  sample ??= readFileSync('public/sample/gsm8k_gpt3_openai_4cand.jsonl', 'utf8').split('\n');
  return sample.slice(start, end).join('\n');
}

export const file = (text: string, name = 'data.jsonl') => ({ kind: 'file' as const, file: new File([text], name) });

/** A tiny GPT-2-vocabulary model file: freshly initialised with `seed`, or every weight 0 (all energies tie at 0); `training`: its training summary. */
export async function modelFile(seed: number | 'zeros', maxLen = 32, training?: Record<string, unknown>): Promise<ArrayBuffer> {
  const cfg = makeConfig({ vocabSize: GPT2_VOCAB, dModel: 8, nHeads: 2, nLayers: 1, ffnDim: 16, maxLen, clsId: GPT2_EOT, sepId: GPT2_EOT, padId: GPT2_EOT });
  let tensors;
  if (seed === 'zeros') {
    tensors = new Map(paramShapes(cfg).map(([name, shape]) => [name, new Float32Array(shape.reduce((a, b) => a * b, 1))]));
  } else {
    const params = initParams(cfg, seed);
    tensors = await paramsToArrays(params, activeProfile());
    disposeParams(params);
  }
  return writeModel({ cfg, tensors, metadata: training ? { training } : {} }).buffer;
}
