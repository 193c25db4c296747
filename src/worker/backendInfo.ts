/** What the engine runs on, as the UI shows it. No tfjs here: the UI imports this file. */
export interface AdapterSummary {
  vendor: string;
  architecture: string;
  description: string;
  /** Limits that decide whether a model fits (bytes). */
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
}

export interface BackendInfo {
  backend: 'webgpu' | 'cpu';
  adapter: AdapterSummary | null;
  /** Why WebGPU is not in use, in words for the user; null when it is. */
  fallbackReason: string | null;
}

/** "WebGPU · google swiftshader", or "CPU backend". */
export function backendLabel(b: BackendInfo): string {
  if (b.backend === 'cpu') return 'CPU backend';
  const a = b.adapter;
  const name = a ? [a.vendor, a.architecture, a.description].filter(Boolean).join(' ') : '';
  return `WebGPU · ${name || 'unknown adapter'}`;
}
