import type { BackendChoice } from '../worker/backend/backendInfo.ts';

const KEY = 'eorm.backend';
const CHOICES: readonly BackendChoice[] = ['auto', 'webgpu', 'wasm', 'cpu'];

const isChoice = (v: string | null): v is BackendChoice => v !== null && (CHOICES as readonly string[]).includes(v);

/** ?backend=webgpu|wasm|cpu|auto wins (and is remembered); else the last choice made here; else auto. */
export function initialBackendChoice(): BackendChoice {
  const fromUrl = new URLSearchParams(window.location.search).get('backend');
  if (isChoice(fromUrl)) {
    rememberBackendChoice(fromUrl);
    return fromUrl;
  }
  const stored = safeStorage()?.getItem(KEY) ?? null;
  return isChoice(stored) ? stored : 'auto';
}

export function rememberBackendChoice(choice: BackendChoice): void {
  safeStorage()?.setItem(KEY, choice);
}

/** Storage can be off (privacy settings, sandboxed frames): then nothing is remembered, nothing breaks. */
function safeStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export { CHOICES as BACKEND_CHOICES };
