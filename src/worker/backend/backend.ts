import * as tf from '@tensorflow/tfjs';
import '@tensorflow/tfjs-backend-webgpu';
import { getThreadsCount } from '@tensorflow/tfjs-backend-wasm';
import {
  type AdapterSummary,
  BACKEND_NAMES,
  type BackendChoice,
  type BackendInfo,
  type BackendName,
  type ProbeResult,
  backendName,
  isSoftwareAdapter,
} from './backendInfo.ts';
import { fastest, probeActiveBackend } from './backendProbe.ts';
import { configureWasm } from './wasmSetup.ts';
import { detectProfile, useProfile } from '../../engine/backend/profile.ts';
import { registerWebGpuKernels } from '../../engine/kernels/registerWebGpu.ts';

export type { AdapterSummary, BackendInfo } from './backendInfo.ts';

const START_LIMIT_MS = 30_000;
/**
 * WebGPU dispatches recorded before tfjs submits them (tfjs's default is 15). A submit is among the
 * engine thread's largest single costs on a fast GPU, so fewer of them train faster (docs/performance.md);
 * the buffers a pass frees return to the pool at its submit, so a longer batch holds a few more.
 */
let submitEvery = 64;
/** For the GPU bench's comparison of batch sizes (Node route); the app keeps the default. */
export function setSubmitEvery(n: number): void {
  submitEvery = n;
}
/** A workgroup count no product is under: tfjs then never picks its few-workgroup programs (split-K among them). */
const SPLIT_K_NEVER = 1e-9;
let adapter: AdapterSummary | null = null;
let probes: ProbeResult[] | null = null;

/** Makes `name` the active tfjs backend; throws a message in plain words when it cannot run here. */
async function activate(name: BackendName): Promise<void> {
  if (name === 'webgpu') {
    const gpu = (globalThis.navigator as Navigator | undefined)?.gpu;
    if (!gpu) throw new Error('this browser exposes no WebGPU (navigator.gpu is missing)');
    if (!adapter) {
      const a = await gpu.requestAdapter();
      if (!a) throw new Error('WebGPU is present but no GPU adapter is available');
      const info = a.info;
      const [vendor, architecture, description] = [info?.vendor ?? '', info?.architecture ?? '', info?.description ?? ''];
      const isFallbackAdapter =
        (info as { isFallbackAdapter?: boolean } | undefined)?.isFallbackAdapter ?? (a as { isFallbackAdapter?: boolean }).isFallbackAdapter ?? false;
      adapter = {
        vendor,
        architecture,
        description,
        isFallbackAdapter,
        software: isFallbackAdapter || isSoftwareAdapter(vendor, architecture, description),
        maxBufferSize: a.limits.maxBufferSize,
        maxStorageBufferBindingSize: a.limits.maxStorageBufferBindingSize,
      };
    }
  }
  if (name === 'wasm') configureWasm(navigator.hardwareConcurrency || 1);
  let ok = false;
  try {
    // A backend whose start never settles (e.g. WASM thread workers a policy blocks) must not hang the engine.
    ok = await Promise.race([
      tf.setBackend(name).then(async (started) => (started ? (await tf.ready(), true) : false)),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`it did not start within ${START_LIMIT_MS / 1000} s`)), START_LIMIT_MS)),
    ]);
  } catch (e) {
    throw new Error(`the ${backendName(name)} backend failed to start: ${e instanceof Error ? e.message : String((e as { message?: string })?.message ?? e)}`);
  }
  if (!ok) throw new Error(`the ${backendName(name)} backend failed to start`);
  if (name === 'webgpu') {
    tf.env().set('WEBGPU_DEFERRED_SUBMIT_BATCH_SIZE', submitEvery);
    // No split-K products: they add their partial sums with atomics, in whatever order the GPU runs them,
    // so the same step would not give the same bits twice (replayed steps are checked to). The products
    // that lose it (few output tiles over thousands of tokens: small weight gradients) are a sliver of a step.
    tf.env().set('WEBGPU_THRESHOLD_TO_INCREASE_WORKGROUPS_FOR_MATMUL', SPLIT_K_NEVER);
    registerWebGpuKernels();
  }
  // What runs where on this backend, decided once here: the model, optimizer and loop read it.
  useProfile(detectProfile(name));
}

/** Starts and times every backend once per worker (the probe), then remembers the figures. */
async function probeAll(names: readonly BackendName[]): Promise<ProbeResult[]> {
  if (probes) return probes;
  const out: ProbeResult[] = [];
  for (const name of names) {
    const t0 = performance.now();
    try {
      await activate(name);
      out.push({ backend: name, available: true, ...(await probeActiveBackend()) });
    } catch (e) {
      out.push({
        backend: name,
        available: false,
        roundsPerSec: null,
        gflops: null,
        ms: performance.now() - t0,
        error: e instanceof Error ? e.message : String(e),
      });
    }
  }
  probes = out;
  return out;
}

function describe(name: BackendName): string {
  if (name === 'webgpu') return adapter?.software ? 'the software WebGPU adapter' : 'WebGPU';
  return name === 'wasm' ? 'WASM' : 'the CPU backend';
}

function threads(name: BackendName): number | null {
  return name === 'wasm' ? getThreadsCount() : null;
}

function headline(name: BackendName): string {
  const t = threads(name);
  return `${backendName(name)}${t !== null ? `, ${t} thread${t === 1 ? '' : 's'}` : ''}${name === 'webgpu' && adapter?.software ? ' (software adapter)' : ''}`;
}

/** "WASM, 1 thread — 12× faster than the CPU backend and at least 100× faster than the software WebGPU adapter here". */
function autoReason(chosen: BackendName, all: ProbeResult[]): string {
  const me = all.find((p) => p.backend === chosen)!;
  const others = all.filter((p) => p.available && p.backend !== chosen).sort((a, b) => b.roundsPerSec! - a.roundsPerSec!);
  const parts = [headline(chosen)];
  if (others.length > 0) {
    const against = others.map((o) => {
      const ratio = me.roundsPerSec! / o.roundsPerSec!;
      return `${o.bounded ? 'at least ' : ''}${ratio.toFixed(ratio >= 10 ? 0 : 1)}× faster than ${describe(o.backend)}`;
    });
    parts.push(`${against.join(' and ')} here`);
  } else parts.push('the only backend that runs here');
  const missing = all.filter((p) => !p.available).map((p) => `${backendName(p.backend)}: ${p.error}`);
  return `${parts.join(' — ')}${missing.length > 0 ? ` (${missing.join('; ')})` : ''}`;
}

function info(backend: BackendName, requested: BackendChoice, reason: string, all: ProbeResult[]): BackendInfo {
  return { backend, requested, adapter: backend === 'webgpu' ? adapter : null, threads: threads(backend), reason, probes: all };
}

/**
 * Picks the engine's backend. 'auto' probes WebGPU (noting software adapters), WASM and the CPU and
 * takes the fastest; a named backend is used when it runs here, else the probe decides and the
 * reason says why the request could not be met. Can be called again to switch (tensors move lazily).
 * `names`: the backends the probe tries (all of them in the app).
 */
export async function initBackend(choice: BackendChoice = 'auto', names: readonly BackendName[] = BACKEND_NAMES): Promise<BackendInfo> {
  const all = await probeAll(names);
  if (choice !== 'auto') {
    const asked = all.find((p) => p.backend === choice) ?? { available: false, error: 'it is not among the backends tried here' };
    if (asked.available) {
      await activate(choice);
      return info(choice, choice, `${headline(choice)} — chosen by you (auto would take ${backendName(fastest(all) ?? choice)})`, all);
    }
    const best = fastest(all);
    if (!best) throw new Error('No tfjs backend could start in this browser.');
    await activate(best);
    return info(best, choice, `${backendName(choice)} was asked for but ${asked.error}; using ${headline(best)}`, all);
  }
  const best = fastest(all);
  if (!best) throw new Error(`No tfjs backend could start in this browser: ${all.map((p) => `${backendName(p.backend)}: ${p.error}`).join('; ')}`);
  await activate(best);
  return info(best, 'auto', autoReason(best, all), all);
}
