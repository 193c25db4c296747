import type { ModelConfig } from '../../engine/model/config.ts';
import { paramCount } from '../../engine/model/config.ts';
import { type Params, cloneParams, disposeParams } from '../../engine/model/params.ts';
import type { ModelInfo, ModelSlot } from '../protocols/models.ts';
import type { ModelSettings } from '../protocols/training.ts';

export interface SlotModel {
  cfg: ModelConfig;
  params: Params;
  source: 'trained' | 'imported';
  description: string;
  warnings: string[];
  /** Training facts for the export's metadata. */
  training: Record<string, unknown>;
}

/** One command's hold on a slot's model: its weights stay alive until released, whatever replaces them meanwhile. */
export interface ModelLease {
  slot: ModelSlot;
  /** Changes on every replacement of the slot's model. */
  revision: number;
  model: SlotModel;
  release(): void;
}

interface Entry {
  model: SlotModel;
  revision: number;
  readers: number;
  /** No longer in its slot: disposed once the last reader lets go. */
  retired: boolean;
}

/**
 * The models Inspect, Rerank and Export can use: the model being trained (latest), its best
 * checkpoint by validation Best-of-N, and an imported file. One of them is selected at a time.
 * Commands that await while using weights hold a lease, so replacing a model never frees weights
 * another command is still reading.
 */
export class ModelSlots {
  private readonly slots = new Map<ModelSlot, Entry>();
  private revisions = 0;
  active: ModelSlot = 'latest';

  get(slot: ModelSlot = this.active): SlotModel | undefined {
    return this.slots.get(slot)?.model;
  }

  revision(slot: ModelSlot): number | undefined {
    return this.slots.get(slot)?.revision;
  }

  /** The selected model, or a message saying how to get one. */
  require(): SlotModel {
    const m = this.get();
    if (m) return m;
    throw missing(this.active);
  }

  acquire(slot: ModelSlot = this.active): ModelLease {
    const e = this.slots.get(slot);
    if (!e) throw missing(slot);
    e.readers++;
    let held = true;
    return {
      slot,
      revision: e.revision,
      model: e.model,
      release: () => {
        if (!held) return;
        held = false;
        e.readers--;
        this.disposeIfDone(e);
      },
    };
  }

  set(slot: ModelSlot, model: SlotModel): void {
    this.retire(slot);
    this.slots.set(slot, { model, revision: ++this.revisions, readers: 0, retired: false });
  }

  /** Copies the latest weights into the best slot. */
  snapshotBest(description: string, training: Record<string, unknown>): void {
    const latest = this.get('latest');
    if (!latest) return;
    this.set('best', { ...latest, params: cloneParams(latest.params), description, training });
  }

  clearTrained(): void {
    this.retire('latest');
    this.retire('best');
  }

  select(slot: ModelSlot): void {
    if (!this.slots.has(slot)) throw new Error(`There is no ${slot} model to select.`);
    this.active = slot;
  }

  info(): ModelInfo[] {
    return [...this.slots].map(([slot, { model: m, revision }]) => ({
      slot,
      source: m.source,
      params: paramCount(m.cfg),
      model: modelSettingsOf(m.cfg),
      description: m.description,
      epoch: numberOrNull(m.training.epoch),
      step: numberOrNull(m.training.step),
      valBestOfN: numberOrNull(m.training.valBestOfN),
      warnings: m.warnings,
      revision,
    }));
  }

  private retire(slot: ModelSlot): void {
    const old = this.slots.get(slot);
    if (!old) return;
    this.slots.delete(slot);
    old.retired = true;
    this.disposeIfDone(old);
  }

  private disposeIfDone(e: Entry): void {
    if (e.retired && e.readers === 0) disposeParams(e.model.params);
  }
}

/** The fields of a config that a run's settings choose (vocabulary and special ids are the tokenizer's). */
export function modelSettingsOf(cfg: ModelConfig): ModelSettings {
  return {
    dModel: cfg.dModel,
    nHeads: cfg.nHeads,
    nLayers: cfg.nLayers,
    ffnDim: cfg.ffnDim,
    dropout: cfg.dropout,
    maxLen: cfg.maxLen,
    positional: cfg.positional,
  };
}

const missing = (slot: ModelSlot) => new Error(`No ${slot} model yet: train one, or import a .safetensors file in the Model panel.`);

const numberOrNull = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
