/**
 * Which ModelConfig a weights file is read with. Precedence, field by field: the caller's config, then
 * our `eorm_config` metadata (or else the PyTorch reference's snake_case `config`), then what the tensor
 * shapes say (for converted checkpoints without metadata), then defaults. nHeads leaves no trace in the
 * shapes (in_proj is [3d, d] for any head count), so defaulting it is always reported.
 */
import { CONFIG_LIMITS, DEFAULT_CONFIG, type ModelConfig, validateConfig } from '../model/config.ts';
import { GPT2_EOT } from '../data/tokenize/gpt2.ts';
import { type SafetensorsHeader, SafetensorsError } from './safetensors.ts';

export type ConfigSource = 'caller' | 'eorm_config' | 'reference_config' | 'shapes';

const KEYS = Object.keys(DEFAULT_CONFIG) as Array<keyof ModelConfig>;

type Fields = Partial<Record<keyof ModelConfig, unknown>>;

export function configFromFile(
  header: SafetensorsHeader,
  meta: Record<string, string>,
  caller: Partial<ModelConfig>,
  warnings: string[],
): { cfg: ModelConfig; source: ConfigSource } {
  const given = Object.fromEntries(Object.entries(caller).filter(([, v]) => v !== undefined)) as Fields;
  const callerComplete = KEYS.every((k) => given[k] !== undefined);

  let fromMeta: Fields = {};
  let metaSource: ConfigSource | undefined;
  if (meta.eorm_config !== undefined) {
    const obj = parseObject(meta.eorm_config);
    if (obj) {
      fromMeta = ourConfigFields(obj, warnings);
      metaSource = 'eorm_config';
    } else if (callerComplete) {
      warnings.push('The config in the file\'s metadata ("eorm_config") is not a JSON object; using the config supplied instead.');
    } else {
      throw new SafetensorsError(
        'The config in the file\'s metadata ("eorm_config") is not a JSON object. The file is damaged: load it with an explicit config.',
      );
    }
  } else if (meta.config !== undefined) {
    const obj = parseObject(meta.config);
    if (obj) {
      fromMeta = referenceFields(obj);
      if (Object.keys(fromMeta).length > 0) metaSource = 'reference_config';
    } else {
      warnings.push('The metadata "config" is not JSON; ignored.');
    }
  }

  const ids = specialIds(meta.eorm_special_ids, warnings);
  for (const k of KEYS) {
    if (given[k] !== undefined && fromMeta[k] !== undefined && given[k] !== fromMeta[k]) {
      warnings.push(`Using the supplied ${k} = ${String(given[k])} instead of the file's ${String(fromMeta[k])}.`);
    }
  }
  if (ids && metaSource === 'eorm_config') {
    for (const [k, v] of Object.entries(ids)) {
      if (fromMeta[k as keyof ModelConfig] !== undefined && fromMeta[k as keyof ModelConfig] !== v) {
        warnings.push(`The file's special ids disagree with its config (${k} ${String(v)} vs ${String(fromMeta[k as keyof ModelConfig])}); using the config.`);
      }
    }
  }

  const merged: Fields = { ...fromShapes(header), ...ids, ...fromMeta, ...given };
  const missing = (['vocabSize', 'dModel', 'nLayers'] as const).filter((k) => merged[k] === undefined);
  if (missing.length > 0) {
    throw new SafetensorsError(
      `Cannot tell the model config: the file has no config metadata and its tensors do not reveal ${missing.join(', ')} ` +
        '(no "emb.weight" / "enc.layers.*"). Load it with an explicit config.',
      missing.includes('vocabSize') || missing.includes('dModel') ? 'emb.weight' : undefined,
    );
  }
  if (merged.nHeads === undefined) {
    warnings.push(
      `The number of attention heads is not recorded in the file and cannot be read from the shapes; assuming nHeads = ${DEFAULT_CONFIG.nHeads}. If the model was trained with another count, load it with that nHeads or its scores will be wrong.`,
    );
  }
  if (merged.clsId === undefined || merged.sepId === undefined || merged.padId === undefined) {
    warnings.push(`The special token ids are not recorded in the file; assuming GPT-2's <|endoftext|> (${GPT2_EOT}) where missing.`);
  }
  const dModel = merged.dModel as number;
  const cfg = { ...DEFAULT_CONFIG, ffnDim: 4 * dModel, ...merged } as ModelConfig;
  const problems = validateConfig(cfg);
  if (problems.length > 0) {
    throw new SafetensorsError(`The model config for this file is invalid (${problems.join('; ')}). Load it with a valid explicit config.`);
  }
  return { cfg, source: callerComplete ? 'caller' : (metaSource ?? 'shapes') };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Our own ModelConfig JSON; values of the wrong type mean a damaged file, unknown keys a newer writer. */
function ourConfigFields(obj: Record<string, unknown>, warnings: string[]): Fields {
  const out: Fields = {};
  for (const k of KEYS) {
    if (!Object.hasOwn(obj, k)) continue;
    if (typeof obj[k] !== typeof DEFAULT_CONFIG[k]) {
      throw new SafetensorsError(
        `The file's config field "${k}" is ${JSON.stringify(obj[k])}, not a ${typeof DEFAULT_CONFIG[k]}. Load it with an explicit config.`,
      );
    }
    out[k] = obj[k];
  }
  const unknown = Object.keys(obj).filter((k) => !(KEYS as string[]).includes(k));
  if (unknown.length > 0) warnings.push(`Ignored config fields this version does not know: ${unknown.join(', ')}.`);
  return out;
}

/** The PyTorch reference's snake_case config (see the fixtures' weights.safetensors); numeric fields only. */
function referenceFields(obj: Record<string, unknown>): Fields {
  const map: Array<[string, keyof ModelConfig]> = [
    ['vocab_size', 'vocabSize'],
    ['d_model', 'dModel'],
    ['n_heads', 'nHeads'],
    ['n_layers', 'nLayers'],
    ['ffn', 'ffnDim'],
    ['max_len', 'maxLen'],
    ['cls_id', 'clsId'],
    ['sep_id', 'sepId'],
    ['pad_id', 'padId'],
  ];
  const out: Fields = {};
  for (const [ref, k] of map) if (typeof obj[ref] === 'number') out[k] = obj[ref];
  return out;
}

function specialIds(text: string | undefined, warnings: string[]): Fields | undefined {
  if (text === undefined) return undefined;
  const obj = parseObject(text);
  if (!obj) {
    warnings.push('The metadata "eorm_special_ids" is not JSON; ignored.');
    return undefined;
  }
  const out: Fields = {};
  if (typeof obj.cls === 'number') out.clsId = obj.cls;
  if (typeof obj.sep === 'number') out.sepId = obj.sep;
  if (typeof obj.pad === 'number') out.padId = obj.pad;
  return out;
}

/** What the state_dict shapes reveal: vocabSize, dModel, nLayers, ffnDim, positional (+ maxLen). */
function fromShapes(header: SafetensorsHeader): Fields {
  const out: Fields = {};
  const emb = header.byName.get('emb.weight');
  if (emb && emb.shape.length === 2) [out.vocabSize, out.dModel] = emb.shape;
  let maxIndex = -1;
  for (const t of header.tensors) {
    const m = /^enc\.layers\.(\d+)\./.exec(t.name);
    if (m) maxIndex = Math.max(maxIndex, Number(m[1]));
  }
  // A layer index beyond the limit is a corrupt name, not a model to build.
  if (maxIndex >= CONFIG_LIMITS.nLayers)
    throw new SafetensorsError(`Tensor names go up to layer ${maxIndex}, which is not a plausible model. The file is damaged.`);
  if (maxIndex >= 0) out.nLayers = maxIndex + 1;
  const l1 = header.byName.get('enc.layers.0.linear1.weight');
  if (l1 && l1.shape.length === 2) out.ffnDim = l1.shape[0];
  const pos = header.byName.get('pos.weight');
  out.positional = pos ? 'learned' : 'none';
  if (pos && pos.shape.length === 2) out.maxLen = pos.shape[0];
  return out;
}
