/**
 * Train/validation split by group, seeded. Two kinds (python/eorm/split.py mirrors both, bit for bit):
 * - 'mixed' (every split before issue 20): only groups with both a correct and an incorrect candidate are
 *   split, so validation holds only those and the oracle reads 100%.
 * - 'all': the same fraction of ALL groups is held out, so validation figures are what a user would
 *   report over every question; training takes the groups with both labels among the rest (only those
 *   carry a ranking loss).
 * Holding out sources (generators) comes on top of either kind: the same groups are held out, training
 * sees only the candidates of the other sources, validation only the held-out sources' candidates.
 * A separate test file is not split at all.
 */
import { createRng, shuffleInPlace } from '../shared/rng.ts';
import type { TrainingView } from './types.ts';

export const DEFAULT_SPLIT_SEED = 42;
export const DEFAULT_TRAIN_FRACTION = 0.8;

export type SplitKind = 'mixed' | 'all';
export const SPLIT_KINDS: readonly SplitKind[] = ['mixed', 'all'];
/** What a split record without `kind` means: every split made before the kind existed was 'mixed'. */
export const RECORDED_SPLIT_KIND_DEFAULT: SplitKind = 'mixed';

export interface SplitOptions {
  seed?: number;
  /** In (0, 1]; default 0.8. */
  trainFraction?: number;
  /** Default 'mixed' (what an unlabelled record means); new runs ask for 'all' through their settings. */
  kind?: SplitKind;
  /** Sources whose candidates are validated on and never trained on; needs the view's `sources`. */
  holdoutSources?: readonly string[];
}

/** Group indices (into the dataset's group order), how they were chosen, and which candidates take part. */
export interface GroupSplit {
  train: Uint32Array;
  val: Uint32Array;
  /** Absent: 'mixed'. */
  kind?: SplitKind;
  /** The sources held out (validated on, never trained on); absent or empty: none. */
  holdoutSources?: string[];
  /**
   * Only when sources are held out: 1 per candidate that takes part (in training groups the candidates
   * of the other sources, in validation groups the held-out sources' ones). Absent: every candidate.
   */
  keep?: Uint8Array;
}

type Labels = Pick<TrainingView, 'labels' | 'groupStart'>;
type LabelsAndSources = Labels & Pick<TrainingView, 'sources'>;

/** True when group g has at least one correct and one incorrect candidate among those `keep` allows. */
function isMixed({ labels, groupStart }: Labels, g: number, keep?: Uint8Array): boolean {
  let pos = 0;
  let n = 0;
  for (let i = groupStart[g]; i < groupStart[g + 1]; i++) {
    if (keep && !keep[i]) continue;
    pos += labels[i];
    n++;
  }
  return pos > 0 && pos < n;
}

/** Indices of the groups with at least one correct and one incorrect candidate, ascending. */
export function trainableGroups(view: Labels): Uint32Array {
  const out: number[] = [];
  for (let g = 0; g + 1 < view.groupStart.length; g++) if (isMixed(view, g)) out.push(g);
  return Uint32Array.from(out);
}

/** The groups of `groups` with both labels (among the kept candidates), in their order: the "mixed" figure's groups. */
export function mixedGroups(view: Labels, groups: ArrayLike<number>, keep?: Uint8Array): Uint32Array {
  return Uint32Array.from(Array.from(groups).filter((g) => isMixed(view, g, keep)));
}

/** round(fraction · n), with both parts non-empty when fraction < 1 and n ≥ 2. */
function trainCount(n: number, fraction: number): number {
  const nTrain = Math.round(n * fraction);
  return fraction < 1 && n >= 2 ? Math.min(n - 1, Math.max(1, nTrain)) : nTrain;
}

/**
 * Shuffles the groups the kind splits ('mixed': the trainable ones; 'all': every group) with the seeded
 * PRNG and cuts at round(fraction · n); with a fraction below 1 and n ≥ 2 both parts keep at least one
 * group. Training keeps the order of the shuffle, restricted to the groups with both labels.
 */
export function splitGroups(view: LabelsAndSources, options: SplitOptions = {}): GroupSplit {
  const fraction = options.trainFraction ?? DEFAULT_TRAIN_FRACTION;
  if (!(fraction > 0 && fraction <= 1)) throw new Error(`trainFraction must be in (0, 1] (got ${fraction})`);
  const kind = options.kind ?? RECORDED_SPLIT_KIND_DEFAULT;
  if (!SPLIT_KINDS.includes(kind)) throw new Error(`split kind must be 'mixed' or 'all' (got ${JSON.stringify(kind)})`);
  const nGroups = view.groupStart.length - 1;
  const groups = kind === 'mixed' ? trainableGroups(view) : Uint32Array.from({ length: Math.max(0, nGroups) }, (_, g) => g);
  shuffleInPlace(groups, createRng(options.seed ?? DEFAULT_SPLIT_SEED));
  const nTrain = trainCount(groups.length, fraction);
  const trainPart = groups.slice(0, nTrain);
  const val = groups.slice(nTrain);
  const holdoutSources = [...(options.holdoutSources ?? [])];
  if (holdoutSources.length === 0) return { train: kind === 'mixed' ? trainPart : mixedGroups(view, trainPart), val, kind, holdoutSources };

  const keep = holdoutKeep(view, val, holdoutSources);
  return {
    train: mixedGroups(view, trainPart, keep),
    val: Uint32Array.from(Array.from(val).filter((g) => hasKept(view, g, keep))),
    kind,
    holdoutSources,
    keep,
  };
}

function hasKept({ groupStart }: Labels, g: number, keep: Uint8Array): boolean {
  for (let i = groupStart[g]; i < groupStart[g + 1]; i++) if (keep[i]) return true;
  return false;
}

/**
 * 1 per candidate that takes part when `holdout` sources are held out: in the validation groups the
 * held-out sources' candidates, everywhere else the other candidates (a candidate without a source is
 * never held out).
 */
export function holdoutKeep({ groupStart, sources }: LabelsAndSources, val: ArrayLike<number>, holdout: readonly string[]): Uint8Array {
  const n = groupStart[groupStart.length - 1] ?? 0;
  if (!sources || sources.index.length !== n)
    throw new Error(`holding out sources needs each candidate's source (${n} candidates, ${sources?.index.length ?? 'no'} sources given)`);
  const wanted = new Set(holdout);
  const held = Uint8Array.from(sources.names, (name) => (wanted.has(name) ? 1 : 0));
  const inVal = new Uint8Array(groupStart.length - 1);
  for (let k = 0; k < val.length; k++) inVal[val[k]] = 1;
  const keep = new Uint8Array(n);
  for (let g = 0; g + 1 < groupStart.length; g++) {
    for (let i = groupStart[g]; i < groupStart[g + 1]; i++) {
      const isHeld = sources.index[i] >= 0 && held[sources.index[i]] === 1;
      keep[i] = (inVal[g] ? isHeld : !isHeld) ? 1 : 0;
    }
  }
  return keep;
}
