/**
 * How edits to the training form change TrainSettings. Pure functions, so the preset rules are
 * tested without a browser: picking a preset copies its model and its learning rate; editing any model field afterwards
 * turns the preset into 'custom' unless the model still equals the preset's.
 */
import { PRESETS, PRESET_LR, type ModelSettings, type PresetName, type TrainSettings } from '../engine/train/settings.ts';

export type ModelField = keyof ModelSettings;
/** Settings edited as plain fields (preset and model have their own rules). */
export type RunField = Exclude<keyof TrainSettings, 'preset' | 'model'>;

function sameModel(a: ModelSettings, b: ModelSettings): boolean {
  return (Object.keys(a) as ModelField[]).every((k) => a[k] === b[k]);
}

export function withPreset(s: TrainSettings, preset: PresetName): TrainSettings {
  // 'custom' keeps the current fields as the starting point.
  if (preset === 'custom') return { ...s, preset };
  return { ...s, preset, model: { ...PRESETS[preset] }, lr: PRESET_LR[preset] };
}

export function withModelField<K extends ModelField>(s: TrainSettings, key: K, value: ModelSettings[K]): TrainSettings {
  const model = { ...s.model, [key]: value };
  const preset = s.preset !== 'custom' && !sameModel(model, PRESETS[s.preset]) ? 'custom' : s.preset;
  return { ...s, preset, model };
}

export function withRunField<K extends RunField>(s: TrainSettings, key: K, value: TrainSettings[K]): TrainSettings {
  return { ...s, [key]: value };
}

/** What a number field accepts, checked before an edit reaches the settings. */
export interface NumberRule {
  integer?: boolean;
  min?: number;
  /** Exclusive upper bound (dropout < 1). */
  below?: number;
  max?: number;
}

/** The number typed in a field, or null while it is not (yet) acceptable, e.g. "1e-" or "". */
export function parseNumber(text: string, rule: NumberRule): number | null {
  if (text.trim() === '') return null;
  const x = Number(text);
  if (!Number.isFinite(x)) return null;
  if (rule.integer && !Number.isInteger(x)) return null;
  if (rule.min !== undefined && x < rule.min) return null;
  if (rule.max !== undefined && x > rule.max) return null;
  if (rule.below !== undefined && x >= rule.below) return null;
  return x;
}
