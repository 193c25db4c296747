/**
 * The split a model or run was trained with, as its files record it on both sides (the app and
 * python/): `split: {seed, trainFraction, dataset, kind, holdoutSources?}` in the training summary,
 * `dataset` being the training file's identity, "sha256:<64 hex>" of its raw bytes. A `split` without
 * `kind` was made before kinds existed: 'mixed'. Older files carry only the seed (the app's `splitSeed`;
 * python/'s `settings.seed`, with `settings.train_fraction` when not 0.8), also 'mixed'.
 */
import { olderSummarySplits, recordedShape, splitFields } from './olderRecords.ts';
import { SPLIT_KINDS, type SplitKind } from './split.ts';

export interface RecordedSplit {
  seed: number;
  /** Share of the groups the kind splits in the training part, in (0, 1]. */
  trainFraction: number;
  /** The training file's content hash; null when not recorded (an older file) or not known. */
  dataset: string | null;
  /** Absent in files written before kinds existed, which means 'mixed'; readRecordedSplit always fills it in. */
  kind?: SplitKind;
  /** Sources whose candidates were validated on and never trained on; absent or empty: none. */
  holdoutSources?: string[];
}

/** A split as runs and model files write it: `kind` always, `holdoutSources` only when some are held out. */
export function splitRecord(
  seed: number,
  trainFraction: number,
  dataset: string | null,
  kind: SplitKind,
  holdoutSources: readonly string[] = [],
): RecordedSplit {
  return { seed, trainFraction, dataset, kind, ...(holdoutSources.length > 0 ? { holdoutSources: [...holdoutSources] } : {}) };
}

const CONTENT_HASH = /^sha256:[0-9a-f]{64}$/;

const isContentHash = (v: unknown): v is string => typeof v === 'string' && CONTENT_HASH.test(v);

const isSeed = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v);
const isFraction = (v: unknown): v is number => typeof v === 'number' && v > 0 && v <= 1;
const isKind = (v: unknown): v is SplitKind => typeof v === 'string' && (SPLIT_KINDS as readonly string[]).includes(v);
const isSourceList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
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
            : s.kind !== undefined && s.kind !== null && !isKind(s.kind)
              ? `split.kind is ${JSON.stringify(s.kind)}, not "mixed" or "all"`
              : s.holdoutSources !== undefined && s.holdoutSources !== null && !isSourceList(s.holdoutSources)
                ? `split.holdoutSources is ${JSON.stringify(s.holdoutSources)}, not a list of source names`
                : null;
    if (problem !== null || !isObject(s)) return { split: null, problem };
    const { kind, holdoutSources, dataset } = splitFields(s as Parameters<typeof splitFields>[0]);
    return { split: splitRecord(s.seed as number, s.trainFraction as number, dataset, kind, holdoutSources), problem: null };
  }
  const older = olderSummarySplits(training).find(({ seed, trainFraction }) => isSeed(seed) && isFraction(trainFraction));
  if (older) return { split: splitRecord(older.seed as number, older.trainFraction as number, null, recordedShape(null).kind), problem: null };
  return { split: null, problem: null };
}

/**
 * "seed 7, 90% of the groups for training" ('mixed', the wording of every split before kinds);
 * "seed 7, 90% of all questions for training (validation holds every kind)" ('all'); then held-out sources.
 */
export function describeSplit({
  seed,
  trainFraction,
  kind,
  holdoutSources,
}: Pick<RecordedSplit, 'seed' | 'trainFraction' | 'kind' | 'holdoutSources'>): string {
  const pct = Number((trainFraction * 100).toFixed(2));
  const base =
    recordedShape({ kind }).kind === 'all'
      ? `seed ${seed}, ${pct}% of all questions for training (validation holds every kind)`
      : `seed ${seed}, ${pct}% of the groups for training`;
  return holdoutSources && holdoutSources.length > 0 ? `${base}, sources held out for validation: ${holdoutSources.join(', ')}` : base;
}

/** "sha256:1234abcd…": enough to tell two files apart on screen. */
export const shortHash = (hash: string): string => `${hash.slice(0, 'sha256:'.length + 8)}…`;

/**
 * Which split applies to a model on a loaded file (`contentHash`), the one rule continuing, Evaluate and
 * python/'s split_for_init follow: the recorded split when it names this file ('checked'); the recorded
 * split, unchecked, when it names no file; else the caller's own split, with why: the record names
 * another file, cannot be read, or there is none.
 */
export type SplitForFile =
  | { use: 'recorded'; split: RecordedSplit; checked: boolean }
  | { use: 'own'; why: 'otherFile'; dataset: string }
  | { use: 'own'; why: 'unreadable'; problem: string }
  | { use: 'own'; why: 'none' };

export function splitForFile(training: Record<string, unknown>, contentHash: string | null | undefined): SplitForFile {
  const { split, problem } = readRecordedSplit(training);
  if (problem !== null) return { use: 'own', why: 'unreadable', problem };
  if (split === null) return { use: 'own', why: 'none' };
  if (split.dataset === null) return { use: 'recorded', split, checked: false };
  if (split.dataset !== contentHash) return { use: 'own', why: 'otherFile', dataset: split.dataset };
  return { use: 'recorded', split, checked: true };
}

/**
 * The seed a model's figures are computed with (bootstrap, curve subsets, calibration folds), as its own
 * validations were: the run's seed it records (`settings.seed`, both sides), else its split's seed, else
 * `fallback`. python/'s eorm.score follows the same rule.
 */
export function recordedFigureSeed(training: Record<string, unknown>, fallback: number): number {
  const settings = training.settings;
  if (isObject(settings) && isSeed(settings.seed)) return settings.seed;
  return readRecordedSplit(training).split?.seed ?? fallback;
}
