/**
 * The engine worker's protocol (commands.ts, events.ts): the models, their evaluations, Inspect, Rerank and
 * "Why this energy?".
 */
import type { EnergyHistogram } from '../../engine/metrics/histogram.ts';
import type { EvalSummary } from '../../engine/metrics/summary.ts';
import type { HeldOutNote } from '../../engine/data/heldOutNote.ts';
import type { SelectionReport, SourceRow } from '../../engine/metrics/selectionTypes.ts';
import type { NCurveRow } from '../../engine/metrics/ncurve.ts';
import type { ModelSettings } from '../../engine/train/settings.ts';

/** Which model Inspect, Rerank and Export use. */
export type ModelSlot = 'latest' | 'best' | 'imported';
export type EvalSet = 'val' | 'test';
export type InspectFilter = 'all' | 'top-wrong';

/** The candidate a saliency is asked for: its view and its `index` there (RankedCandidate.index). */
export interface SaliencyTarget {
  view: 'inspect' | 'rerank';
  index: number;
  /** Picked by the UI to tell its requests apart; the answer carries it back. */
  id: number;
}

export interface EvalReport {
  set: EvalSet;
  /** Epoch (1-based) and step at which it was taken; epoch 0 = before training. */
  epoch: number;
  step: number;
  /** Mean training loss over the epoch that just ended (null for mid-epoch or standalone evaluations). */
  epochTrainLoss: number | null;
  summary: EvalSummary;
  curve: NCurveRow[];
  histogram: EnergyHistogram;
  /** This evaluation made a new best checkpoint. */
  isBest: boolean;
  /** 'run': taken by the training loop (its curves); 'request': the answer to an `evaluate` command. */
  origin: 'run' | 'request';
  /** The model evaluated. */
  modelSlot: ModelSlot;
  /** The per-source audit (engine/metrics/sources.ts); [] when the lines name no source; absent in reports recorded before it. */
  sources?: SourceRow[];
  /** The selection rules with intervals, the fitted temperature and calibration; absent in reports recorded before them. */
  selection?: SelectionReport | null;
  /** The recommended rule's accuracy over all held-out questions (not only those with both labels); absent when not computed. */
  allQuestionsAccuracy?: number | null;
  /** A validation's: which split its questions come from, in plain words (heldOutNote.ts); absent for a test file and in older reports. */
  heldOut?: HeldOutNote | null;
}

/** The evaluation of scores a file brings (no model behind them), over every question as a test file's. */
export type ScoresReport = Pick<EvalReport, 'summary' | 'curve' | 'histogram' | 'sources' | 'selection' | 'allQuestionsAccuracy'>;

export interface ModelInfo {
  slot: ModelSlot;
  source: 'trained' | 'imported';
  params: number;
  model: ModelSettings;
  /** e.g. "epoch 3, val Best-of-N 0.62" or the imported file's name. */
  description: string;
  /** Where training stood when these weights were taken (null when unknown, e.g. an imported file without a summary). */
  epoch: number | null;
  step: number | null;
  valBestOfN: number | null;
  warnings: string[];
  /** Bumped whenever the slot gets other weights: results tagged with an older revision are stale. */
  revision: number;
}

export interface RankedCandidate {
  rank: number;
  /** Position in the group (Inspect) or in the pasted list (Rerank), 0-based. */
  index: number;
  energy: number;
  deltaToBest: number;
  share: number;
  /** null when unlabelled (pasted candidates). */
  label: 0 | 1 | null;
  answer: string | null;
  text: string;
  tokens: number;
  truncated: boolean;
}

/** One final answer among pasted candidates (Rerank), with its probability of being right (metrics/rerankProbability.ts). */
export interface RerankAnswer {
  /** The canonical final answer; null: the candidates from which no answer was extracted (they never win the vote). */
  answer: string | null;
  /**
   * The map fitted on held-out questions applied: its share of softmax(−E/T), Platt's map of that share, or
   * the learned selector's probability (the no-answer row: its share).
   */
  probability: number;
  /** The pick (the most probable answer; ties: the first seen). */
  picked: boolean;
  /** Its candidates' pasted positions, lowest energy first. */
  candidates: number[];
}
