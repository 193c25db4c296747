import { GPT2_EOT, GPT2_VOCAB } from '../data/tokenize/gpt2.ts';

/** One typed TransEBM configuration; every hyper-parameter of the model is declared here once. */
export type Positional = 'none' | 'learned';

export interface ModelConfig {
  vocabSize: number;
  dModel: number;
  nHeads: number;
  nLayers: number;
  /** Feed-forward width; PyTorch's TransformerEncoderLayer default here is 4·dModel. */
  ffnDim: number;
  dropout: number;
  /** Longest input (CLS included); longer inputs are right-truncated. */
  maxLen: number;
  clsId: number;
  sepId: number;
  padId: number;
  /** The reference has no positional encoding ('none'); 'learned' adds `pos.weight` [maxLen, d]. */
  positional: Positional;
}

export const DEFAULT_CONFIG: ModelConfig = {
  vocabSize: GPT2_VOCAB,
  dModel: 768,
  nHeads: 4,
  nLayers: 2,
  ffnDim: 4 * 768,
  dropout: 0.2,
  maxLen: 2048,
  clsId: GPT2_EOT,
  sepId: GPT2_EOT,
  padId: GPT2_EOT,
  positional: 'none',
};

/** Fills defaults (ffnDim follows dModel unless given) and rejects configs the model cannot run. */
export function makeConfig(partial: Partial<ModelConfig> = {}): ModelConfig {
  const dModel = partial.dModel ?? DEFAULT_CONFIG.dModel;
  const cfg: ModelConfig = { ...DEFAULT_CONFIG, ffnDim: 4 * dModel, ...partial, dModel };
  const problems = validateConfig(cfg);
  if (problems.length > 0) throw new Error(`Invalid model config: ${problems.join('; ')}`);
  return cfg;
}

/**
 * Largest sizes a config may have. Beyond them a config is a damaged file, not a model a browser tab
 * could hold, and must be refused before anything is sized by it (a loader iterates over nLayers).
 */
export const CONFIG_LIMITS = {
  vocabSize: 1 << 20,
  dModel: 16_384,
  nHeads: 1_024,
  nLayers: 1_024,
  ffnDim: 65_536,
  maxLen: 65_536,
  /** float32 values: 4 GB, more than a tab can allocate. */
  parameters: 1e9,
} as const;

/** Parameters of a config in closed form (no per-layer list: the config may not be validated yet). */
function parameterCount(cfg: ModelConfig): number {
  const { vocabSize: v, dModel: d, ffnDim: f, nLayers: l, maxLen } = cfg;
  const layer = 3 * d * d + 3 * d + d * d + d + f * d + f + d * f + d + 4 * d;
  return v * d + (cfg.positional === 'learned' ? maxLen * d : 0) + l * layer + 2 * d + d * d + d + d + 1;
}

export function validateConfig(cfg: ModelConfig): string[] {
  const out: string[] = [];
  const posInt = (k: keyof typeof CONFIG_LIMITS & keyof ModelConfig) => {
    const v = cfg[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v <= 0) out.push(`${k} must be a positive integer (got ${String(v)})`);
    else if (v > CONFIG_LIMITS[k]) out.push(`${k} must be at most ${CONFIG_LIMITS[k]} (got ${v})`);
  };
  (['vocabSize', 'dModel', 'nHeads', 'nLayers', 'ffnDim', 'maxLen'] as const).forEach(posInt);
  if (out.length === 0 && parameterCount(cfg) > CONFIG_LIMITS.parameters) {
    out.push(`the model would have ${parameterCount(cfg)} parameters, more than the ${CONFIG_LIMITS.parameters} a browser tab can hold`);
  }
  if (cfg.dModel % cfg.nHeads !== 0) out.push(`dModel (${cfg.dModel}) must be divisible by nHeads (${cfg.nHeads})`);
  if (!(cfg.dropout >= 0 && cfg.dropout < 1)) out.push(`dropout must be in [0, 1) (got ${cfg.dropout})`);
  if (cfg.maxLen < 2) out.push('maxLen must be at least 2 (CLS and one token)');
  for (const k of ['clsId', 'sepId', 'padId'] as const) {
    if (!Number.isInteger(cfg[k]) || cfg[k] < 0 || cfg[k] >= cfg.vocabSize) out.push(`${k} must be a token id below vocabSize`);
  }
  if (cfg.positional !== 'none' && cfg.positional !== 'learned') out.push(`positional must be 'none' or 'learned'`);
  return out;
}

/** Parameter names and shapes in PyTorch `state_dict` order (Linear weights are [out, in]). */
export function paramShapes(cfg: ModelConfig): Array<[string, number[]]> {
  const d = cfg.dModel;
  const out: Array<[string, number[]]> = [['emb.weight', [cfg.vocabSize, d]]];
  if (cfg.positional === 'learned') out.push(['pos.weight', [cfg.maxLen, d]]);
  for (let i = 0; i < cfg.nLayers; i++) {
    const p = `enc.layers.${i}.`;
    out.push(
      [`${p}self_attn.in_proj_weight`, [3 * d, d]],
      [`${p}self_attn.in_proj_bias`, [3 * d]],
      [`${p}self_attn.out_proj.weight`, [d, d]],
      [`${p}self_attn.out_proj.bias`, [d]],
      [`${p}linear1.weight`, [cfg.ffnDim, d]],
      [`${p}linear1.bias`, [cfg.ffnDim]],
      [`${p}linear2.weight`, [d, cfg.ffnDim]],
      [`${p}linear2.bias`, [d]],
      [`${p}norm1.weight`, [d]],
      [`${p}norm1.bias`, [d]],
      [`${p}norm2.weight`, [d]],
      [`${p}norm2.bias`, [d]],
    );
  }
  out.push(['head.0.weight', [d]], ['head.0.bias', [d]], ['head.1.weight', [d, d]], ['head.1.bias', [d]], ['head.3.weight', [1, d]], ['head.3.bias', [1]]);
  return out;
}

export function paramCount(cfg: ModelConfig): number {
  return paramShapes(cfg).reduce((n, [, s]) => n + s.reduce((a, b) => a * b, 1), 0);
}

/** Converts the fixture / PyTorch-side config (snake_case) to ours. */
export function configFromReference(ref: Record<string, unknown>, extra: Partial<ModelConfig> = {}): ModelConfig {
  const num = (k: string, dflt?: number): number => {
    const v = ref[k];
    if (typeof v === 'number') return v;
    if (dflt !== undefined) return dflt;
    throw new Error(`reference config lacks numeric field "${k}"`);
  };
  const d = num('d_model');
  return makeConfig({
    vocabSize: num('vocab_size'),
    dModel: d,
    nHeads: num('n_heads'),
    nLayers: num('n_layers'),
    ffnDim: num('ffn', 4 * d),
    dropout: 0,
    clsId: num('cls_id', GPT2_EOT),
    sepId: num('sep_id', num('cls_id', GPT2_EOT)),
    padId: num('pad_id', GPT2_EOT),
    ...extra,
  });
}
