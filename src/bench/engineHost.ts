/**
 * What a benchmark run needs of an engine, wherever it runs: the real worker in headless Chromium
 * (enginePage.ts) or the same engine in-process in Node on Dawn's WebGPU (nodeEngine.ts).
 * Predicates are JavaScript expressions of `e` (an event), so the page can evaluate them where the events are.
 */
import type { Command } from '../worker/protocols/commands.ts';
import type { DataSource } from '../worker/protocols/data.ts';
import type { WorkerEvent } from '../worker/protocols/events.ts';

export type Timed<T extends WorkerEvent['type']> = Extract<WorkerEvent, { type: T }> & { at: number; index: number };

export interface EngineHost {
  send(cmd: Command): Promise<void>;
  /** The engine's clock in ms (the events' `at`). */
  now(): Promise<number>;
  eventCount(): Promise<number>;
  /** The first event of `type` at or after index `from` for which `pred` holds; an error event throws. */
  waitFor<T extends WorkerEvent['type']>(type: T, from?: number, pred?: string, timeoutMs?: number): Promise<Timed<T>>;
  /** Events [from, to), each with its `at`. */
  events(from: number, to: number): Promise<Array<WorkerEvent & { at: number }>>;
  /** From now on, asks for the counters the moment the first event for which `pred` holds is emitted (once). */
  countersOn(pred: string): Promise<void>;
  /** The data source that loads `name`, one of the files the host was made with. */
  source(name: string): DataSource;
  close(): Promise<void>;
}

/** Where hosts come from: one fresh engine per host, with these files to load (name → bytes). */
export interface EngineRuntime {
  newHost(files: Record<string, Buffer>): Promise<EngineHost>;
}
