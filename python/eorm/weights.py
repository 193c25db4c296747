"""`.safetensors` model files in the app's layout (src/engine/io/safetensors.ts, modelFile.ts, modelConfig.ts):
PyTorch `state_dict` names, F32 (F16 read too), `__metadata__` first with the config as JSON strings, header
padded with spaces to a multiple of 8. The writer's bytes equal the app's for the same tensors and metadata,
so files go both ways: the app imports what `eorm.train` writes, and `eorm.score` / `--init` read app exports.
The format itself: eorm.safetensors_file."""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Tuple

import numpy as np
import torch

from . import jsonparse
from .config import CONFIG_KEYS, GPT2_EOT, ModelConfig, param_shapes, validate_config
from .safetensors_file import RawFile, SafetensorsError, not_json_constant, parse_safetensors, read_safetensors, tensor_array, write_safetensors  # noqa: F401 (re-exported)

FORMAT_VERSION = 1
META_FORMAT = "format"
META_VERSION = "eorm_format"
META_CONFIG = "eorm_config"
META_REFERENCE = "config"
META_TOKENIZER = "eorm_tokenizer"
META_SPECIAL = "eorm_special_ids"
META_TRAINING = "eorm_training"
RESERVED = (META_FORMAT, META_VERSION, META_CONFIG, META_REFERENCE, META_TOKENIZER, META_SPECIAL, META_TRAINING)
TOKENIZER_NAME = "r50k_base (GPT-2 BPE, eorm python)"
# The app's CONFIG_LIMITS (src/engine/model/config.ts): beyond them a config is a damaged file.
CONFIG_LIMITS = {"vocabSize": 1 << 20, "dModel": 16_384, "nHeads": 1_024, "nLayers": 1_024, "ffnDim": 65_536, "maxLen": 65_536}
MAX_PARAMETERS = 1e9


def _js(obj) -> str:
    """JSON.stringify layout: compact, non-ASCII kept; integral floats written as integers (1.0 → 1)."""

    def norm(v):
        if isinstance(v, float) and v.is_integer() and abs(v) < 1e21:
            return int(v)
        if isinstance(v, dict):
            return {k: norm(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [norm(x) for x in v]
        return v

    return json.dumps(norm(obj), separators=(",", ":"), ensure_ascii=False, allow_nan=False)


# ---- model files -------------------------------------------------------------------------------------


def model_metadata(cfg: ModelConfig, training: Optional[Dict] = None, tokenizer: str = TOKENIZER_NAME, extra: Optional[Dict[str, str]] = None) -> Dict[str, str]:
    """The `__metadata__` the app writes, in its key order."""
    c = cfg.to_dict()
    meta = {
        META_FORMAT: "pt",
        META_VERSION: str(FORMAT_VERSION),
        META_CONFIG: _js({k: c[k] for k in CONFIG_KEYS}),
        META_REFERENCE: _js({"vocab_size": cfg.vocabSize, "d_model": cfg.dModel, "n_heads": cfg.nHeads, "n_layers": cfg.nLayers, "ffn": cfg.ffnDim, "cls_id": cfg.clsId, "sep_id": cfg.sepId, "pad_id": cfg.padId}),
        META_TOKENIZER: tokenizer,
        META_SPECIAL: _js({"cls": cfg.clsId, "sep": cfg.sepId, "pad": cfg.padId}),
    }
    if training is not None:
        meta[META_TRAINING] = _js(training)
    for k, v in (extra or {}).items():
        if k in RESERVED:
            raise SafetensorsError(f'Cannot save: metadata key "{k}" is reserved for EORM Studio.')
        meta[k] = v
    return meta


def write_model(cfg: ModelConfig, tensors: Dict[str, torch.Tensor], training: Optional[Dict] = None, extra: Optional[Dict[str, str]] = None) -> bytes:
    problems = validate_config(cfg)
    if problems:
        raise SafetensorsError(f"Cannot save: the model config is invalid ({'; '.join(problems)}).")
    listed = []
    for name, shape in param_shapes(cfg):
        if name not in tensors:
            raise SafetensorsError(f'Cannot save: parameter "{name}" is missing.', name)
        arr = tensors[name].detach().float().cpu().numpy() if isinstance(tensors[name], torch.Tensor) else np.asarray(tensors[name], dtype=np.float32)
        if tuple(arr.shape) != tuple(shape):
            raise SafetensorsError(f'Cannot save: parameter "{name}" has shape {list(arr.shape)}, the config needs {list(shape)}.', name)
        listed.append((name, arr))
    return write_safetensors(listed, model_metadata(cfg, training, extra=extra))


@dataclass
class LoadedModel:
    cfg: ModelConfig
    config_source: str
    tensors: Dict[str, torch.Tensor]
    metadata: Dict[str, str]
    training: Optional[Dict] = None
    warnings: List[str] = field(default_factory=list)


_REFERENCE_MAP = [("vocab_size", "vocabSize"), ("d_model", "dModel"), ("n_heads", "nHeads"), ("n_layers", "nLayers"), ("ffn", "ffnDim"), ("max_len", "maxLen"), ("cls_id", "clsId"), ("sep_id", "sepId"), ("pad_id", "padId")]


def _js_value(text: str):
    """JSON.parse of a metadata string; integers stay exact (int() cannot take over 4,300 digits: a double then,
    as in JS). Raises ValueError when the text is not JSON (NaN and Infinity are not)."""
    return jsonparse.loads(text, parse_int=lambda s: int(s) if len(s) < 4000 else float(s), parse_float=float, parse_constant=not_json_constant)


def _object(text: str) -> Optional[Dict]:
    try:
        v = _js_value(text)
    except ValueError:
        return None
    return v if isinstance(v, dict) else None


_LAYER = re.compile(r"enc\.layers\.([0-9]+)\.")


def _layer_index(name: str) -> Optional[int]:
    """The layer index in "enc.layers.<ASCII digits>.…", as the app's regex reads it; a huge index reads as 10**9."""
    m = _LAYER.match(name)
    if m is None:
        return None
    digits = m.group(1).lstrip("0") or "0"
    return int(digits) if len(digits) < 10 else 10**9


def _limit_problems(cfg: ModelConfig) -> List[str]:
    """The app's limits on a config read from a file (CONFIG_LIMITS and the parameter count)."""
    out = []
    for k, limit in CONFIG_LIMITS.items():
        v = getattr(cfg, k)
        if isinstance(v, int) and v > limit:
            out.append(f"{k} must be at most {limit} (got {v})")
    if out or any(not isinstance(getattr(cfg, k), int) or getattr(cfg, k) <= 0 for k in CONFIG_LIMITS):
        return out
    v, d, f, l = cfg.vocabSize, cfg.dModel, cfg.ffnDim, cfg.nLayers
    layer = 3 * d * d + 3 * d + d * d + d + f * d + f + d * f + d + 4 * d
    count = v * d + (cfg.maxLen * d if cfg.positional == "learned" else 0) + l * layer + 2 * d + d * d + d + d + 1
    if count > MAX_PARAMETERS:
        out.append(f"the model would have {count} parameters, more than the {MAX_PARAMETERS:.0f} a browser tab can hold")
    return out


def config_from_file(f: RawFile, caller: Dict, warnings: List[str]) -> Tuple[ModelConfig, str]:
    """The app's precedence, field by field: caller, then `eorm_config` (else the reference's `config`), then
    what the tensor shapes say, then defaults."""
    meta = f.metadata or {}
    defaults = ModelConfig()
    given = {k: v for k, v in caller.items() if v is not None}
    caller_complete = all(k in given for k in CONFIG_KEYS)
    from_meta: Dict = {}
    source = None
    if META_CONFIG in meta:
        obj = _object(meta[META_CONFIG])
        if obj is None:
            if not caller_complete:
                raise SafetensorsError('The config in the file\'s metadata ("eorm_config") is not a JSON object. The file is damaged: load it with an explicit config.')
            warnings.append('The config in the file\'s metadata ("eorm_config") is not a JSON object; using the config supplied instead.')
        else:
            for k in CONFIG_KEYS:
                if k not in obj:
                    continue
                want_str = isinstance(getattr(defaults, k), str)
                ok = isinstance(obj[k], str) if want_str else (isinstance(obj[k], (int, float)) and not isinstance(obj[k], bool))
                if not ok:
                    raise SafetensorsError(f'The file\'s config field "{k}" is {json.dumps(obj[k])}, not a {"string" if want_str else "number"}. Load it with an explicit config.')
                from_meta[k] = obj[k]
            unknown = [k for k in obj if k not in CONFIG_KEYS]
            if unknown:
                warnings.append(f"Ignored config fields this version does not know: {', '.join(unknown)}.")
            source = "eorm_config"
    elif META_REFERENCE in meta:
        obj = _object(meta[META_REFERENCE])
        if obj is None:
            warnings.append('The metadata "config" is not JSON; ignored.')
        else:
            for ref, k in _REFERENCE_MAP:
                if isinstance(obj.get(ref), (int, float)) and not isinstance(obj.get(ref), bool):
                    from_meta[k] = obj[ref]
            if from_meta:
                source = "reference_config"
    ids: Dict = {}
    if META_SPECIAL in meta:
        obj = _object(meta[META_SPECIAL])
        if obj is None:
            warnings.append('The metadata "eorm_special_ids" is not JSON; ignored.')
        else:
            for short, k in (("cls", "clsId"), ("sep", "sepId"), ("pad", "padId")):
                if isinstance(obj.get(short), (int, float)) and not isinstance(obj.get(short), bool):
                    ids[k] = obj[short]
    shapes: Dict = {}
    emb = f.header.get("emb.weight")
    if emb and len(emb["shape"]) == 2:
        shapes["vocabSize"], shapes["dModel"] = emb["shape"]
    layers = [i for i in map(_layer_index, f.header) if i is not None]
    if layers:
        if max(layers) >= CONFIG_LIMITS["nLayers"]:
            raise SafetensorsError(f"Tensor names go up to layer {max(layers)}, which is not a plausible model. The file is damaged.")
        shapes["nLayers"] = max(layers) + 1
    l1 = f.header.get("enc.layers.0.linear1.weight")
    if l1 and len(l1["shape"]) == 2:
        shapes["ffnDim"] = l1["shape"][0]
    pos = f.header.get("pos.weight")
    shapes["positional"] = "learned" if pos else "none"
    if pos and len(pos["shape"]) == 2:
        shapes["maxLen"] = pos["shape"][0]
    merged = {**shapes, **ids, **from_meta, **given}
    missing = [k for k in ("vocabSize", "dModel", "nLayers") if k not in merged]
    if missing:
        raise SafetensorsError(f"Cannot tell the model config: the file has no config metadata and its tensors do not reveal {', '.join(missing)}. Load it with an explicit config.")
    if "nHeads" not in merged:
        warnings.append(f"The number of attention heads is not recorded in the file and cannot be read from the shapes; assuming nHeads = {defaults.nHeads}.")
    if any(k not in merged for k in ("clsId", "sepId", "padId")):
        warnings.append(f"The special token ids are not recorded in the file; assuming GPT-2's <|endoftext|> ({GPT2_EOT}) where missing.")
    d = merged["dModel"]
    values = {**defaults.to_dict(), "ffnDim": 4 * d, **merged}
    for k in CONFIG_KEYS:
        if k != "dropout" and isinstance(values[k], float) and values[k].is_integer():
            values[k] = int(values[k])
    cfg = ModelConfig(**values)
    problems = validate_config(cfg) + _limit_problems(cfg)
    if problems:
        raise SafetensorsError(f"The model config for this file is invalid ({'; '.join(problems)}). Load it with a valid explicit config.")
    return cfg, ("caller" if caller_complete else (source or "shapes"))


def read_model(buf: bytes, config: Optional[Dict] = None) -> LoadedModel:
    """Parses, validates every tensor against the config, then converts (float32 torch tensors)."""
    f = parse_safetensors(buf)
    warnings: List[str] = list(f.warnings)
    cfg, source = config_from_file(f, config or {}, warnings)
    problems = []
    for name, shape in param_shapes(cfg):
        e = f.header.get(name)
        if e is None:
            problems.append((name, f'Tensor "{name}" (shape {list(shape)}) is missing. The file holds a different model or is incomplete: load it with the config it was trained with.'))
        elif tuple(e["shape"]) != tuple(shape):
            problems.append((name, f'Tensor "{name}" has shape {e["shape"]} but the config needs {list(shape)}. The file holds a different model or is incomplete: load it with the config it was trained with.'))
        elif e["dtype"] not in ("F32", "F16"):
            problems.append((name, f'Tensor "{name}" is stored as {e["dtype"]}; only F32 and F16 are supported. Convert the checkpoint to float32 before saving.'))
    if problems:
        raise SafetensorsError(problems[0][1], problems[0][0])
    expected = {n for n, _ in param_shapes(cfg)}
    extra = [n for n in f.order if n not in expected]
    if extra:
        warnings.append(f"Ignored {len(extra)} tensor(s) the config does not use: {', '.join(extra[:8])}.")
    tensors = {}
    for name, _ in param_shapes(cfg):
        arr = tensor_array(f, name)
        _refuse_non_finite(name, arr)
        tensors[name] = torch.from_numpy(arr)
    meta = dict(f.metadata or {})
    training = None
    if META_TRAINING in meta:
        try:
            value = _js_value(meta[META_TRAINING])
            training = value if isinstance(value, dict) else None
        except ValueError:
            warnings.append("The training summary in the metadata is not JSON; ignored.")
    return LoadedModel(cfg, source, tensors, meta, training, warnings)


def _refuse_non_finite(name: str, arr: np.ndarray) -> None:
    """NaN or ±Infinity weights make every energy NaN: such a file is refused, naming the tensor (as the app does)."""
    bad = ~np.isfinite(arr.reshape(-1))
    n = int(bad.sum())
    if n:
        first = int(np.argmax(bad))
        v = float(arr.reshape(-1)[first])
        shown = "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
        raise SafetensorsError(
            f'Tensor "{name}" has {n} NaN/infinite value(s) (the first at index {first}: {shown}): the model would score every answer NaN. '
            "Training probably diverged; export the model from an earlier checkpoint (or with a lower learning rate).",
            name,
        )


def load_model_file_or_exit(path: str, option: str):
    """load_model_file for the command lines: a file that cannot be read ends the program with the reason
    (exit status 1, no traceback)."""
    try:
        return load_model_file(path)
    except SafetensorsError as e:
        raise SystemExit(f"{option} {path}: cannot use this model file: {e}") from None
    except OSError as e:
        raise SystemExit(f"{option} {path}: cannot read the file ({e.strerror or e}).") from None


def load_model_file(path: str, config: Optional[Dict] = None, dropout: Optional[float] = None):
    """A TransEBM built from a weights file (eval mode), and the LoadedModel it came from."""
    from .model import TransEBM, load_arrays

    with open(path, "rb") as fh:
        loaded = read_model(fh.read(), config)
    cfg = loaded.cfg if dropout is None else replace(loaded.cfg, dropout=dropout)
    model = TransEBM(cfg)
    load_arrays(model, loaded.tensors)
    model.eval()
    return model, loaded
