/**
 * A TransEBM model as one safetensors file: PyTorch `state_dict` names and layouts (so the reference
 * loads it unchanged), config / tokenizer / training summary as JSON strings in `__metadata__`.
 * Reading validates every tensor against the config before converting any data, and refuses NaN or
 * infinite weights, so a file that does not fit loads nothing and the SafetensorsError names the tensor.
 */
import { DEFAULT_CONFIG, type ModelConfig, paramShapes, validateConfig } from '../model/config.ts';
import { configFromFile, type ConfigSource } from './modelConfig.ts';
import { asBytes, type FloatDtype, numel, parseHeader, SafetensorsError, type SafetensorsHeader, tensorData } from './safetensors.ts';
import { type TensorToWrite, writeSafetensors } from './safetensorsWriter.ts';

/** `__metadata__` keys. Values are strings (the format allows nothing else); structured ones are JSON. */
export const META = {
  /** "pt": what Hugging Face loaders expect of a PyTorch state_dict. */
  format: 'format',
  /** Version of this layout, so later versions can migrate old files. */
  version: 'eorm_format',
  /** JSON of ModelConfig: the authority when present. */
  config: 'eorm_config',
  /** snake_case `{vocab_size, d_model, n_heads, n_layers, ffn, cls_id, sep_id, pad_id}`, as the PyTorch reference writes it. */
  referenceConfig: 'config',
  tokenizer: 'eorm_tokenizer',
  /** JSON `{cls, sep, pad}`: the ids the model was trained with. */
  specialIds: 'eorm_special_ids',
  /** JSON object summarising training (steps, losses, data, date…). */
  training: 'eorm_training',
} as const;

export const FORMAT_VERSION = 1;

/** JSON-serialisable facts about a training run; the app decides what goes in. */
export type TrainingSummary = Record<string, unknown>;

export interface ModelMetadata {
  /** E.g. "r50k_base". */
  tokenizer?: string;
  training?: TrainingSummary;
  /** More string metadata; must not reuse a key of META. */
  extra?: Record<string, string>;
}

export interface WriteModelInput {
  cfg: ModelConfig;
  tensors: ReadonlyMap<string, Float32Array>;
  metadata?: ModelMetadata;
  /** Tensors to store as F16 (e.g. ['emb.weight'] halves the file; lossless only for float16-exact values). */
  f16?: readonly string[];
}

/** Serialises the parameters in state_dict order with the config in the metadata. Throws SafetensorsError. */
export function writeModel({ cfg, tensors, metadata = {}, f16 = [] }: WriteModelInput): Uint8Array<ArrayBuffer> {
  const problems = validateConfig(cfg);
  if (problems.length > 0) throw new SafetensorsError(`Cannot save: the model config is invalid (${problems.join('; ')}).`);
  const shapes = paramShapes(cfg);
  const known = new Set(shapes.map(([n]) => n));
  for (const name of [...tensors.keys(), ...f16]) {
    if (!known.has(name)) throw new SafetensorsError(`Cannot save: "${name}" is not a parameter of this model config.`, name);
  }
  const half = new Set(f16);
  const list: TensorToWrite[] = shapes.map(([name, shape]) => {
    const data = tensors.get(name);
    if (!data) throw new SafetensorsError(`Cannot save: parameter "${name}" is missing.`, name);
    if (data.length !== numel(shape)) {
      throw new SafetensorsError(`Cannot save: parameter "${name}" has ${data.length} values, shape [${shape.join(', ')}] needs ${numel(shape)}.`, name);
    }
    const dtype: FloatDtype = half.has(name) ? 'F16' : 'F32';
    return { name, shape, data, dtype };
  });

  const meta: Record<string, string> = {
    [META.format]: 'pt',
    [META.version]: String(FORMAT_VERSION),
    // Key list = fixed order and no stray fields, so equal configs give equal bytes.
    [META.config]: JSON.stringify(cfg, Object.keys(DEFAULT_CONFIG)),
    [META.referenceConfig]: JSON.stringify({
      vocab_size: cfg.vocabSize,
      d_model: cfg.dModel,
      n_heads: cfg.nHeads,
      n_layers: cfg.nLayers,
      ffn: cfg.ffnDim,
      cls_id: cfg.clsId,
      sep_id: cfg.sepId,
      pad_id: cfg.padId,
    }),
  };
  if (metadata.tokenizer !== undefined) meta[META.tokenizer] = metadata.tokenizer;
  meta[META.specialIds] = JSON.stringify({ cls: cfg.clsId, sep: cfg.sepId, pad: cfg.padId });
  if (metadata.training !== undefined) meta[META.training] = JSON.stringify(metadata.training);
  for (const [k, v] of Object.entries(metadata.extra ?? {})) {
    if (Object.values(META).includes(k as never)) throw new SafetensorsError(`Cannot save: metadata key "${k}" is reserved for EORM Studio.`);
    meta[k] = v;
  }
  return writeSafetensors(list, meta);
}

export interface ReadModelOptions {
  /**
   * Config from the caller, e.g. for a file converted from a PyTorch checkpoint. Its fields win over the
   * file's metadata and over what the tensor shapes suggest; missing fields come from those.
   */
  config?: Partial<ModelConfig>;
  /** Copy F32 tensors instead of viewing the input's memory (see ReadOptions.copy). */
  copy?: boolean;
  /** Refuse files with tensors the config does not use (default: ignore them with a warning). */
  rejectExtra?: boolean;
}

export interface LoadedModel {
  cfg: ModelConfig;
  /** Where the config came from: our metadata, the reference's metadata, the tensor shapes, or the caller. */
  configSource: ConfigSource;
  /** Exactly the config's parameters, in state_dict order, as float32. */
  tensors: Map<string, Float32Array>;
  tokenizer?: string;
  training?: TrainingSummary;
  /** The raw `__metadata__` (empty when the file has none). */
  metadata: Record<string, string>;
  /** Things that did not stop the load but deserve a look (show them to the user). */
  warnings: string[];
}

/** Parses, validates against the config, then converts. Throws SafetensorsError and loads nothing on a mismatch. */
export function readModel(input: Uint8Array | ArrayBuffer, opts: ReadModelOptions = {}): LoadedModel {
  const bytes = asBytes(input);
  const header = parseHeader(bytes);
  const metadata = header.metadata ?? (Object.create(null) as Record<string, string>);
  const warnings = [...header.warnings];
  const { cfg, source } = configFromFile(header, metadata, opts.config ?? {}, warnings);

  // Only the first two problems get a message (building one per tensor of a huge config would not end).
  const problems: Array<{ tensor: string; message: string }> = [];
  let nProblems = 0;
  const problem = (tensor: string, message: () => string) => {
    if (nProblems++ < 2) problems.push({ tensor, message: message() });
  };
  const expected = paramShapes(cfg);
  const expectedNames = new Set(expected.map(([n]) => n));
  const fix = 'The file holds a different model or is incomplete: load it with the config it was trained with.';
  for (const [name, shape] of expected) {
    const e = header.byName.get(name);
    if (!e) {
      problem(name, () => `Tensor "${name}" (shape [${shape.join(', ')}]) is missing for ${describe(cfg)}. ${fix}${prefixHint(header, name)}`);
    } else if (e.shape.length !== shape.length || e.shape.some((d, i) => d !== shape[i])) {
      problem(name, () => `Tensor "${name}" has shape [${e.shape.join(', ')}] but ${describe(cfg)} needs [${shape.join(', ')}]. ${fix}`);
    } else if (e.dtype !== 'F32' && e.dtype !== 'F16') {
      problem(name, () => `Tensor "${name}" is stored as ${e.dtype}; only F32 and F16 are supported. Convert the checkpoint to float32 before saving.`);
    }
  }
  const extra = header.tensors.filter((t) => !expectedNames.has(t.name)).map((t) => t.name);
  if (extra.length > 0) {
    const list =
      extra
        .slice(0, 8)
        .map((n) => `"${n}"`)
        .join(', ') + (extra.length > 8 ? `, … (${extra.length} in all)` : '');
    if (opts.rejectExtra) problem(extra[0], () => `The file has tensors ${describe(cfg)} does not use: ${list}. Remove them or load with the matching config.`);
    else warnings.push(`Ignored ${extra.length} tensor(s) ${describe(cfg)} does not use: ${list}.`);
  }
  if (problems.length > 0) {
    const [first, second] = problems;
    const more = nProblems > 1 ? ` (${nProblems - 1} more problem(s), e.g. "${second.tensor}")` : '';
    throw new SafetensorsError(first.message + more, first.tensor);
  }

  const tensors = new Map<string, Float32Array>();
  for (const [name] of expected) {
    const data = tensorData(bytes, header, header.byName.get(name)!, { copy: opts.copy });
    refuseNonFinite(name, data);
    tensors.set(name, data);
  }
  const out: LoadedModel = { cfg, configSource: source, tensors, metadata, warnings };
  const tokenizer = metadata[META.tokenizer];
  if (tokenizer !== undefined) out.tokenizer = tokenizer;
  const training = metadata[META.training];
  if (training !== undefined) {
    try {
      out.training = JSON.parse(training) as TrainingSummary;
    } catch {
      warnings.push(`The training summary in the metadata is not JSON; ignored.`);
    }
  }
  return out;
}

function describe(cfg: ModelConfig): string {
  return `the config (vocabSize ${cfg.vocabSize}, dModel ${cfg.dModel}, nLayers ${cfg.nLayers}, ffnDim ${cfg.ffnDim}, positional ${cfg.positional})`;
}

/** A converted checkpoint that names tensors with a prefix ("model.emb.weight"): say which prefix to strip. One pass over the names. */
function prefixHint(header: SafetensorsHeader, name: string): string {
  const near = header.tensors.find((t) => t.name.endsWith(`.${name}`));
  return near ? ` The file has "${near.name}": strip the "${near.name.slice(0, -name.length)}" prefix when converting.` : '';
}

/** NaN or ±Infinity weights make every energy NaN: such a file is refused, naming the tensor. */
function refuseNonFinite(name: string, a: Float32Array): void {
  let n = 0;
  let first = -1;
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i])) {
      if (n++ === 0) first = i;
    }
  }
  if (n > 0) {
    throw new SafetensorsError(
      `Tensor "${name}" has ${n} NaN/infinite value(s) (the first at index ${first}: ${a[first]}): the model would score every answer NaN. ` +
        'Training probably diverged; export the model from an earlier checkpoint (or with a lower learning rate).',
      name,
    );
  }
}
