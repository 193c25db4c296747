/** What the engine runs on, as the UI shows it. No tfjs here: the UI imports this file. */
export type BackendName = 'webgpu' | 'wasm' | 'cpu';
/** What the user asked for: a backend, or 'auto' (the fastest by the start-up probe). */
export type BackendChoice = BackendName | 'auto';

/** Probe order: the CPU backends first, so a GPU still compiling cannot slow their figures. */
export const BACKEND_NAMES: readonly BackendName[] = ['wasm', 'cpu', 'webgpu'];

export interface AdapterSummary {
  vendor: string;
  architecture: string;
  description: string;
  /** The browser says this adapter is a fallback (software or otherwise slow) one. */
  isFallbackAdapter: boolean;
  /** A CPU renderer (SwiftShader, llvmpipe, lavapipe, …): correct, but not GPU speed. */
  software: boolean;
  /** Limits that decide whether a model fits (bytes). */
  maxBufferSize: number;
  maxStorageBufferBindingSize: number;
}

/** One backend's start-up probe: a small kernel mix like a training step's, timed after a warm-up. */
export interface ProbeResult {
  backend: BackendName;
  /** False when the backend could not start here (then `error` says why). */
  available: boolean;
  /** Probe rounds per second (higher is faster); null when unavailable. */
  roundsPerSec: number | null;
  /** Floating-point throughput of the probe's products, GFLOP/s. */
  gflops: number | null;
  /** Wall time the probe took, compilation included (ms). */
  ms: number;
  /** The first round did not finish in time: the figures are upper bounds. */
  bounded?: boolean;
  error?: string;
}

export interface BackendInfo {
  backend: BackendName;
  requested: BackendChoice;
  adapter: AdapterSummary | null;
  /** WASM threads (1 unless the page is cross-origin isolated); null on other backends. */
  threads: number | null;
  /** Why this backend, in words for the header: "WASM, 1 thread — 31× faster than the software WebGPU adapter here". */
  reason: string;
  probes: ProbeResult[];
}

const NAMES: Record<BackendName, string> = { webgpu: 'WebGPU', wasm: 'WASM', cpu: 'CPU' };

export function backendName(b: BackendName): string {
  return NAMES[b];
}

/** "WebGPU · google swiftshader (software)", "WASM · 2 threads", or "CPU backend". */
export function backendLabel(b: BackendInfo): string {
  if (b.backend === 'cpu') return 'CPU backend';
  if (b.backend === 'wasm') return `WASM · ${b.threads ?? 1} thread${b.threads === 1 || b.threads === null ? '' : 's'}`;
  const a = b.adapter;
  const name = a ? [a.vendor, a.architecture, a.description].filter(Boolean).join(' ') : '';
  return `WebGPU · ${name || 'unknown adapter'}${a?.software ? ' (software)' : ''}`;
}

/** Adapter names of CPU renderers: their timings are never GPU speed. */
export function isSoftwareAdapter(vendor: string, architecture: string, description: string): boolean {
  return /swiftshader|llvmpipe|lavapipe|software|microsoft basic render/i.test(`${vendor} ${architecture} ${description}`);
}
