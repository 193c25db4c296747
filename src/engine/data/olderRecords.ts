/**
 * How records written before a field existed read today, every such rule in one place: the runs and
 * tokenized files the browser stores, checkpoints, a run's settings, and the training summaries of model
 * files (the app's and python/'s). A reader asks here instead of filling in a missing field itself.
 * The database's own upgrades between its versions are worker/storage/db.ts's `upgrade`.
 */
import { DEFAULT_TRAIN_FRACTION, RECORDED_SPLIT_KIND_DEFAULT, type SplitKind } from './split.ts';

/** A recorded split's fields that came later, as far as a record has them. */
interface SplitFields {
  kind?: SplitKind | null;
  holdoutSources?: string[] | null;
  dataset?: string | null;
}

/**
 * How a recorded split chose its groups and candidates: a record without `kind` (made before kinds
 * existed, or no record at all) is 'mixed'; without `holdoutSources`, none is held out.
 */
export function recordedShape(split: Omit<SplitFields, 'dataset'> | null | undefined): { kind: SplitKind; holdoutSources: string[] } {
  return { kind: split?.kind ?? RECORDED_SPLIT_KIND_DEFAULT, holdoutSources: split?.holdoutSources ?? [] };
}

/** A `split` field's later fields filled in: its shape (above) and its file, null when not recorded (an older file). */
export function splitFields(split: SplitFields): { kind: SplitKind; holdoutSources: string[]; dataset: string | null } {
  return { ...recordedShape(split), dataset: split.dataset ?? null };
}

/**
 * Where a training summary written before the `split` field keeps its split (always 'mixed'): the app's
 * `splitSeed`, with fraction 0.8, else python/'s `settings.seed` with `settings.train_fraction` (0.8 when
 * absent). In that order; the reader takes the first whose seed and fraction it accepts.
 */
export function olderSummarySplits(training: Record<string, unknown>): Array<{ seed: unknown; trainFraction: unknown }> {
  const fromApp = { seed: training.splitSeed, trainFraction: DEFAULT_TRAIN_FRACTION };
  const settings = training.settings;
  if (settings === null || typeof settings !== 'object') return [fromApp];
  const python = settings as Record<string, unknown>;
  return [fromApp, { seed: python.seed, trainFraction: python.train_fraction ?? DEFAULT_TRAIN_FRACTION }];
}

/**
 * A stored run's split: its `split` when recorded; runs stored before it kept only `splitSeed` (fraction
 * 0.8), and their file is known only by its hash in the run's dataset key (`keyHash`).
 */
export function storedRunSplit(
  run: { split?: { seed: number; trainFraction: number; dataset: string | null }; splitSeed: number },
  keyHash: string | null,
): { seed: number; trainFraction: number; dataset: string | null } {
  return { seed: run.split?.seed ?? run.splitSeed, trainFraction: run.split?.trainFraction ?? DEFAULT_TRAIN_FRACTION, dataset: run.split?.dataset ?? keyHash };
}

/** A stored tokenized file's identity: its key's hash, which every key starts with (entries stored by an older app hold no `contentHash`). */
export function storedDataHash(keyHash: string | null, stored: { contentHash: string }): string {
  return keyHash ?? stored.contentHash;
}

/** The split a run's settings ask for: settings recorded before kinds existed split 'mixed'. */
export const settingsSplitShape = (s: { splitKind?: SplitKind; holdoutSources?: string[] }): { kind: SplitKind; holdoutSources: string[] } =>
  recordedShape({ kind: s.splitKind, holdoutSources: s.holdoutSources });

/** The run's best metric: runs recorded before the setting existed chose by `older` (Best-of-N: rules.json's unfittedBestMetric). */
export const settingsBestMetric = <M extends string>(s: { bestMetric?: M }, older: M): M => s.bestMetric ?? older;

/**
 * The best checkpoint's figure a resumed run carries on from: checkpoints from before `bestMetricValue`
 * kept only Best-of-N's (`bestValBestOfN`), the figure when the run chooses by the metric of such runs (`older`), else none.
 */
export function checkpointBestScore(
  resume: { bestMetricValue?: number | null } | undefined,
  metric: string,
  older: string,
  bestOfN: number | null,
): number | null {
  return resume?.bestMetricValue ?? (metric === older ? bestOfN : null);
}
