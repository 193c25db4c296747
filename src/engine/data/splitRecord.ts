/**
 * The split a model or run was trained with, as its files record it on both sides (the app and
 * python/): `split: {seed, trainFraction, dataset}` in the training summary, `dataset` being the
 * training file's identity, "sha256:<64 hex>" of its raw bytes. Older files carry only the seed
 * (the app's `splitSeed`; python/'s `settings.seed`, with `settings.train_fraction` when not 0.8).
 */
import { DEFAULT_TRAIN_FRACTION } from './split.ts';

export interface RecordedSplit {
  seed: number;
  /** Share of the trainable groups in the training part, in (0, 1]. */
  trainFraction: number;
  /** The training file's content hash; null when not recorded (an older file) or not known. */
  dataset: string | null;
}

const CONTENT_HASH = /^sha256:[0-9a-f]{64}$/;

const isContentHash = (v: unknown): v is string => typeof v === 'string' && CONTENT_HASH.test(v);

const isSeed = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isFraction = (v: unknown): v is number => typeof v === 'number' && v > 0 && v <= 1;
const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * What a training summary says about its split: the `split` field, else the older fields, else null.
 * `problem` says which part of a `split` field could not be read: then nothing is trusted (split null),
 * as python/'s recorded_split does.
 */
export function readRecordedSplit(training: Record<string, unknown>): { split: RecordedSplit | null; problem: string | null } {
  const s = training.split;
  if (s !== undefined && s !== null) {
    const problem = !isObject(s)
      ? 'split is not an object'
      : !isSeed(s.seed)
        ? `split.seed is ${JSON.stringify(s.seed)}, not an integer`
        : !isFraction(s.trainFraction)
          ? `split.trainFraction is ${JSON.stringify(s.trainFraction)}, not a number in (0, 1]`
          : s.dataset !== undefined && s.dataset !== null && !isContentHash(s.dataset)
            ? `split.dataset is ${JSON.stringify(s.dataset)}, not "sha256:" and 64 hex digits`
            : null;
    if (problem !== null || !isObject(s)) return { split: null, problem };
    return { split: { seed: s.seed as number, trainFraction: s.trainFraction as number, dataset: (s.dataset as string | null | undefined) ?? null }, problem: null };
  }
  if (isSeed(training.splitSeed)) return { split: { seed: training.splitSeed, trainFraction: DEFAULT_TRAIN_FRACTION, dataset: null }, problem: null };
  const settings = training.settings;
  if (isObject(settings) && isSeed(settings.seed)) {
    const trainFraction = settings.train_fraction ?? DEFAULT_TRAIN_FRACTION;
    if (isFraction(trainFraction)) return { split: { seed: settings.seed, trainFraction, dataset: null }, problem: null };
  }
  return { split: null, problem: null };
}

/** "seed 7, 90% of the groups for training" */
export function describeSplit({ seed, trainFraction }: Pick<RecordedSplit, 'seed' | 'trainFraction'>): string {
  return `seed ${seed}, ${Number((trainFraction * 100).toFixed(2))}% of the groups for training`;
}

/** "sha256:1234abcd…": enough to tell two files apart on screen. */
export const shortHash = (hash: string): string => `${hash.slice(0, 'sha256:'.length + 8)}…`;
