/** React bindings of the vanilla stores (the stores themselves stay importable from Node tests). */
import { useStore } from 'zustand';
import { engineStore, type EngineStore } from './engineStore.ts';
import { settingsStore, type SettingsStore } from './settingsStore.ts';

/** Select one slice; return stored references or primitives, not fresh objects (zustand 5 would loop). */
export function useEngine<T>(selector: (s: EngineStore) => T): T {
  return useStore(engineStore, selector);
}

export function useSettings<T>(selector: (s: SettingsStore) => T): T {
  return useStore(settingsStore, selector);
}
