import { describe, expect, it } from 'vitest';
import { DEFAULT_TRAIN_SETTINGS, PRESETS } from '../engine/train/settings.ts';
import { parseNumber, withModelField, withPreset } from './settingsLogic.ts';

describe('settings edits', () => {
  it('a preset copies its model and its learning rate', () => {
    const s = withPreset(DEFAULT_TRAIN_SETTINGS, 'small');
    expect(s.preset).toBe('small');
    expect([s.lr, withPreset(s, 'tiny').lr, withPreset(s, 'paper').lr]).toEqual([1e-4, 1e-3, 1e-4]);
    expect(s.model).toEqual(PRESETS.small);
    expect(s.model).not.toBe(PRESETS.small); // edits must not reach the shared constant
  });

  it('editing a model field makes the preset custom, unless the model still matches', () => {
    const tiny = withPreset(DEFAULT_TRAIN_SETTINGS, 'tiny');
    const edited = withModelField(tiny, 'maxLen', 64);
    expect(edited.preset).toBe('custom');
    expect(edited.model.maxLen).toBe(64);
    expect(withModelField(tiny, 'maxLen', PRESETS.tiny.maxLen).preset).toBe('tiny');
    // Once custom it stays custom, even when the fields happen to equal a preset again.
    expect(withModelField(edited, 'maxLen', PRESETS.tiny.maxLen).preset).toBe('custom');
  });

  it('custom keeps the current fields', () => {
    const s = withPreset(withPreset(DEFAULT_TRAIN_SETTINGS, 'paper'), 'custom');
    expect(s.model).toEqual(PRESETS.paper);
  });

  it('parses numbers by rule and rejects partial input', () => {
    expect(parseNumber('1e-4', { min: Number.MIN_VALUE })).toBe(1e-4);
    expect(parseNumber('1e-', {})).toBeNull();
    expect(parseNumber('', {})).toBeNull();
    expect(parseNumber('2.5', { integer: true })).toBeNull();
    expect(parseNumber('0', { integer: true, min: 1 })).toBeNull();
    expect(parseNumber('1', { below: 1 })).toBeNull();
    expect(parseNumber('0.2', { min: 0, below: 1 })).toBe(0.2);
  });
});
