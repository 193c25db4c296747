import type { ModelConfig } from '../engine/model/config.ts';
import { paramCount } from '../engine/model/config.ts';
import { type Params, cloneParams, disposeParams } from '../engine/model/params.ts';
import type { ModelInfo, ModelSlot } from './protocol.ts';

export interface SlotModel {
  cfg: ModelConfig;
  params: Params;
  source: 'trained' | 'imported';
  description: string;
  warnings: string[];
  /** Training facts for the export's metadata. */
  training: Record<string, unknown>;
  /** Set by the slots on every replacement, so evaluations of an older model are recognised as stale. */
  revision?: number;
}

/**
 * The models Inspect, Rerank and Export can use: the model being trained (latest), its best
 * checkpoint by validation Best-of-N, and an imported file. One of them is selected at a time.
 */
export class ModelSlots {
  private readonly slots = new Map<ModelSlot, SlotModel>();
  private revisions = 0;
  active: ModelSlot = 'latest';

  get(slot: ModelSlot = this.active): SlotModel | undefined {
    return this.slots.get(slot);
  }

  /** The selected model, or a message saying how to get one. */
  require(): SlotModel {
    const m = this.get();
    if (m) return m;
    throw new Error(`No ${this.active} model yet: train one, or import a .safetensors file in the Model panel.`);
  }

  set(slot: ModelSlot, model: SlotModel): void {
    const old = this.slots.get(slot);
    if (old && old.params !== model.params) disposeParams(old.params);
    this.slots.set(slot, { ...model, revision: ++this.revisions });
  }

  /** Copies the latest weights into the best slot. */
  snapshotBest(description: string, training: Record<string, unknown>): void {
    const latest = this.slots.get('latest');
    if (!latest) return;
    this.set('best', { ...latest, params: cloneParams(latest.params), description, training });
  }

  clearTrained(): void {
    for (const slot of ['latest', 'best'] as const) {
      const m = this.slots.get(slot);
      if (m) disposeParams(m.params);
      this.slots.delete(slot);
    }
  }

  select(slot: ModelSlot): void {
    if (!this.slots.has(slot)) throw new Error(`There is no ${slot} model to select.`);
    this.active = slot;
  }

  info(): ModelInfo[] {
    return [...this.slots].map(([slot, m]) => ({
      slot,
      source: m.source,
      params: paramCount(m.cfg),
      model: { dModel: m.cfg.dModel, nHeads: m.cfg.nHeads, nLayers: m.cfg.nLayers, ffnDim: m.cfg.ffnDim, dropout: m.cfg.dropout, maxLen: m.cfg.maxLen, positional: m.cfg.positional },
      description: m.description,
      epoch: numberOrNull(m.training.epoch),
      step: numberOrNull(m.training.step),
      valBestOfN: numberOrNull(m.training.valBestOfN),
      warnings: m.warnings,
    }));
  }
}

const numberOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
