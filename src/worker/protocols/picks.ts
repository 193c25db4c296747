/**
 * The engine worker's protocol (commands.ts, events.ts): Pick answers.
 */
import type { PickRule, PickRuleChoice } from '../../engine/score/picksRule.ts';
import type { ModelSlot } from './models.ts';

/** What Pick answers reads: the unlabelled file's picks set, or a labelled file (its accuracy reported too). */
export type PicksSource = 'picks' | 'train' | 'test';
/** 'interrupted': a run a reload (or the tab closing) cut off, told after it; its picks were not kept. */
export type PicksState = 'running' | 'paused' | 'done' | 'cancelled' | 'error' | 'interrupted';
export type { PickRuleChoice };

/** Where a picks run stands: questions done of total, speed and time left (null until measurable). */
export interface PicksProgress {
  state: PicksState;
  set: PicksSource;
  dataName: string;
  /** null: picked without a model. */
  modelSlot: ModelSlot | null;
  rule: PickRule;
  done: number;
  total: number;
  questionsPerSecond: number | null;
  etaSeconds: number | null;
  /** Questions with labels so far, and the share of them picked right (null without labels). */
  labelled: number;
  accuracy: number | null;
  message?: string;
}
