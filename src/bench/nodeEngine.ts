/**
 * The engine in-process in Node, on Dawn's WebGPU: the route to a GPU where there is no Chromium (the GPU
 * kit, src/bench/gpuKit/). Dawn's Node bindings (the npm package `webgpu`) are loaded from a folder, so a
 * bundled bench runs without node_modules. Each host is a fresh engine, as a fresh worker would be: the
 * previous one's backend is torn down and the counters start from zero.
 */
import * as tf from '@tensorflow/tfjs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inProcessPool } from '../engine/data/tokenize/tokenizePool.ts';
import { parityFailures, paritySummary } from '../engine/testing/parityVerdict.ts';
import { readFixture } from '../engine/testing/readFixtureNode.ts';
import { FLOAT32_TOLERANCE, WEBGPU_TOLERANCE } from '../engine/testing/tolerances.ts';
import { resetCounters } from '../worker/backend/counters.ts';
import type { Command } from '../worker/protocols/commands.ts';
import type { WorkerEvent } from '../worker/protocols/events.ts';
import { Persister } from '../worker/storage/persister.ts';
import type { EngineHost, EngineRuntime, Timed } from './engineHost.ts';

interface DawnModule {
  create(flags: string[]): GPU;
  globals: Record<string, unknown>;
}

/**
 * Gives this process `navigator.gpu` from Dawn (`dir`: the `webgpu` package's folder) before any
 * backend starts. `flags`: Dawn's own switches, e.g. "backend=vulkan" or "adapter=NVIDIA".
 */
export async function installDawn(dir: string, flags: string[] = []): Promise<void> {
  const entry = join(resolve(dir), 'index.js');
  let dawn: DawnModule;
  try {
    dawn = (await import(/* @vite-ignore */ pathToFileURL(entry).href)) as DawnModule;
  } catch (e) {
    throw new Error(
      `Dawn's WebGPU for Node could not be loaded from ${entry} (${e instanceof Error ? e.message : String(e)}). Make the GPU kit (npm run gpu-kit) and run the bench with bash src/bench/gpuKit/run.sh`,
    );
  }
  Object.assign(globalThis, dawn.globals);
  // Node 20 has no navigator; later versions have one without `gpu`.
  Object.defineProperty(globalThis, 'navigator', { value: { gpu: dawn.create(flags), hardwareConcurrency: availableParallelism() }, configurable: true });
}

/** The probe's backends in Node: no WASM (its files are the page's). */
const NODE_BACKENDS = ['webgpu', 'cpu'] as const;

export interface NodeParity {
  backend: string;
  seconds: number;
  /** The largest error per kind and the kernels' figures (parityVerdict.ts's paritySummary). */
  summary: string[];
  /** Every check that missed its tolerance; empty when all hold. */
  failures: string[];
}

/**
 * The numeric checks the browser parity test makes (fixture parity, fused kernels, the device-drawn
 * dropout mask), on WebGPU from Dawn: on a real GPU, the first time they run on it. `fixtures`: the
 * PyTorch fixtures' folder.
 */
export async function nodeParity(fixtures: string): Promise<NodeParity> {
  tf.engine().reset();
  const { initBackend } = await import('../worker/backend/backend.ts');
  const { parityReport } = await import('../engine/testing/parityReport.ts');
  const info = await initBackend('webgpu', NODE_BACKENDS);
  const t0 = performance.now();
  const report = await parityReport(readFixture(fixtures));
  const webgpu = info.backend === 'webgpu';
  return {
    backend: info.backend,
    seconds: (performance.now() - t0) / 1000,
    summary: paritySummary(report),
    failures: [...(webgpu ? [] : [`not on WebGPU: ${info.reason}`]), ...parityFailures(report, webgpu, webgpu ? WEBGPU_TOLERANCE : FLOAT32_TOLERANCE)],
  };
}

/** Fresh engines in this process, on WebGPU (once installDawn has run) or else the CPU backend; no WASM: its files are the page's. */
export function nodeRuntime(): EngineRuntime {
  return { newHost: async (files) => newNodeHost(files) };
}

async function newNodeHost(files: Record<string, Buffer>): Promise<EngineHost> {
  // Imported only now: tfjs-backend-webgpu registers itself at import only where navigator.gpu exists.
  const { createEngine } = await import('../worker/engineCore.ts');
  tf.engine().reset(); // the previous engine's backend, device and tensors
  resetCounters();
  const events: Array<WorkerEvent & { at: number }> = [];
  let countersWhen: ((e: WorkerEvent) => boolean) | null = null;
  const emit = (e: WorkerEvent) => {
    events.push({ ...e, at: performance.now() });
    if (countersWhen?.(e)) {
      countersWhen = null; // once, at the first event that matches
      handle({ type: 'counters' });
    }
  };
  const pool = inProcessPool();
  const handle = createEngine(emit, {
    tokenizePool: () => () => pool,
    scoringPeers: () => () => [],
    persister: new Persister(Promise.resolve(null), (message) => emit({ type: 'log', level: 'warn', message })),
    backends: NODE_BACKENDS,
  });
  const predicate = (pred: string) => new Function('e', `return ${pred}`) as (e: WorkerEvent) => boolean;
  return {
    send: async (cmd: Command) => handle(cmd),
    now: async () => performance.now(),
    eventCount: async () => events.length,
    waitFor: async <T extends WorkerEvent['type']>(type: T, from = 0, pred = 'true', timeoutMs = 30 * 60_000) => {
      const test = predicate(pred);
      const deadline = performance.now() + timeoutMs;
      for (;;) {
        const hit = findEvent(events, type, from, test);
        if (hit?.type === 'error') throw new Error(`engine error: ${hit.message}`);
        if (hit) return hit as Timed<T>;
        if (performance.now() > deadline) throw new Error(`no ${type} event (${pred}) within ${timeoutMs / 1000} s`);
        // The engine runs on this thread: waiting is what lets it go on.
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    events: async (from, to) => events.slice(from, to),
    countersOn: async (pred) => void (countersWhen = predicate(pred)),
    source: (name) => {
      const bytes = files[name];
      if (!bytes) throw new Error(`no file "${name}" given to this host`);
      return { kind: 'file', file: new File([new Uint8Array(bytes)], `${name}.jsonl`) };
    },
    close: async () => undefined,
  };
}

/** The first event of `type` from `from` on for which `pred` holds, or an error event (returned as it is). */
function findEvent(events: ReadonlyArray<WorkerEvent & { at: number }>, type: string, from: number, pred: (e: WorkerEvent) => boolean) {
  for (let i = from; i < events.length; i++) {
    const e = events[i];
    if (e.type === 'error') return { ...e, index: i };
    if (e.type === type && pred(e)) return { ...e, index: i };
  }
  return null;
}
