/** The training form: the one TrainSettings object that `estimate` and `start` send. */
import { createStore } from 'zustand/vanilla';
import { DEFAULT_TRAIN_SETTINGS, type ModelSettings, type PresetName, type TrainSettings } from '../engine/train/settings.ts';
import { withModelField, withPreset, withRunField, type ModelField, type RunField } from './settingsLogic.ts';

export interface SettingsStore {
  settings: TrainSettings;
  setPreset(preset: PresetName): void;
  setModelField<K extends ModelField>(key: K, value: ModelSettings[K]): void;
  setRunField<K extends RunField>(key: K, value: TrainSettings[K]): void;
}

export const settingsStore = createStore<SettingsStore>()((set) => ({
  settings: { ...DEFAULT_TRAIN_SETTINGS, model: { ...DEFAULT_TRAIN_SETTINGS.model } },
  setPreset: (preset) => set((s) => ({ settings: withPreset(s.settings, preset) })),
  setModelField: (key, value) => set((s) => ({ settings: withModelField(s.settings, key, value) })),
  setRunField: (key, value) => set((s) => ({ settings: withRunField(s.settings, key, value) })),
}));
