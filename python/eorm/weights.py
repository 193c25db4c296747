"""`.safetensors` model files in the app's layout (src/engine/io/safetensors.ts, modelFile.ts, modelConfig.ts):
PyTorch `state_dict` names, F32 (F16 read too), `__metadata__` first with the config as JSON strings, header
padded with spaces to a multiple of 8. The writer's bytes equal the app's for the same tensors and metadata,
so files go both ways: the app imports what `eorm.train` writes, and `eorm.score` / `--init` read app exports.
No dependency on the `safetensors` package."""
from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field, replace
from typing import Dict, List, Optional, Tuple

import numpy as np
import torch

from .config import CONFIG_KEYS, GPT2_EOT, ModelConfig, param_shapes, validate_config

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

_DTYPES = {"F32": (np.dtype("<f4"), 4), "F16": (np.dtype("<f2"), 2), "F64": (np.dtype("<f8"), 8)}
_ITEM = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "I16": 2, "U16": 2, "F16": 2, "BF16": 2, "I32": 4, "U32": 4, "F32": 4, "I64": 8, "U64": 8, "F64": 8}


class SafetensorsError(ValueError):
    def __init__(self, message: str, tensor: Optional[str] = None) -> None:
        super().__init__(message)
        self.tensor = tensor


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


def write_safetensors(tensors: List[Tuple[str, np.ndarray]], metadata: Optional[Dict[str, str]] = None) -> bytes:
    """Tensors (name, float32 array) in the given order; F32 little endian; `__metadata__` first."""
    parts: List[str] = []
    if metadata is not None:
        for k, v in metadata.items():
            if not isinstance(v, str):
                raise SafetensorsError(f'Metadata "{k}" must be a string (got {type(v).__name__}); JSON-encode it first.')
        parts.append('"__metadata__":{' + ",".join(f"{json.dumps(k, ensure_ascii=False)}:{json.dumps(v, ensure_ascii=False)}" for k, v in metadata.items()) + "}")
    payloads: List[bytes] = []
    offset = 0
    seen = set()
    for name, arr in tensors:
        if name == "__metadata__" or name in seen:
            raise SafetensorsError(f'Tensor "{name}" is reserved or given twice.', name)
        seen.add(name)
        data = np.ascontiguousarray(arr, dtype="<f4").tobytes()
        shape = ",".join(str(int(s)) for s in np.shape(arr))
        parts.append(f'{json.dumps(name, ensure_ascii=False)}:{{"dtype":"F32","shape":[{shape}],"data_offsets":[{offset},{offset + len(data)}]}}')
        payloads.append(data)
        offset += len(data)
    header = ("{" + ",".join(parts) + "}").encode("utf-8")
    padded = len(header) + (-len(header)) % 8
    return struct.pack("<Q", padded) + header + b" " * (padded - len(header)) + b"".join(payloads)


@dataclass
class RawFile:
    header: Dict[str, Dict]
    metadata: Optional[Dict[str, str]]
    data: memoryview
    order: List[str]


def parse_safetensors(buf: bytes) -> RawFile:
    not_st = "Is this a .safetensors file (and was it downloaded completely)?"
    if len(buf) < 8:
        raise SafetensorsError(f"The file is {len(buf)} bytes long, shorter than the 8-byte header length of a safetensors file. {not_st}")
    (n,) = struct.unpack("<Q", buf[:8])
    if n > 100_000_000 or 8 + n > len(buf):
        raise SafetensorsError(f"The header length field says {n} bytes but only {len(buf) - 8} follow it. {not_st}")
    try:
        head = json.loads(bytes(buf[8 : 8 + n]).decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as e:
        raise SafetensorsError(f"The header is not JSON ({e}). {not_st}") from None
    if not isinstance(head, dict):
        raise SafetensorsError(f"The header is JSON but not an object of tensors. {not_st}")
    meta = head.pop("__metadata__", None)
    if meta is not None and (not isinstance(meta, dict) or not all(isinstance(v, str) for v in meta.values())):
        raise SafetensorsError('The header\'s "__metadata__" is not an object of strings; the file is malformed (re-save it).')
    data = memoryview(buf)[8 + n :]
    for name, e in head.items():
        if not isinstance(e, dict) or "dtype" not in e or "shape" not in e or "data_offsets" not in e:
            raise SafetensorsError(f'Tensor "{name}": malformed header entry. The file is malformed; re-export it.', name)
        b, end = e["data_offsets"]
        size = _ITEM.get(e["dtype"])
        count = int(np.prod(e["shape"], dtype=np.int64)) if e["shape"] else 1
        if end < b or end > len(data) or (size is not None and count * size != end - b):
            raise SafetensorsError(f'Tensor "{name}": data_offsets [{b}, {end}] do not fit shape {e["shape"]} ({e["dtype"]}). The file is malformed; re-export it.', name)
    order = sorted(head, key=lambda k: tuple(head[k]["data_offsets"]))
    return RawFile(head, meta, data, order)


def tensor_array(f: RawFile, name: str) -> np.ndarray:
    """float32 copy of one F32 / F16 / F64 / BF16 tensor."""
    e = f.header[name]
    b, end = e["data_offsets"]
    raw = f.data[b:end]
    dt = e["dtype"]
    if dt == "BF16":
        u = np.frombuffer(raw, dtype="<u2").astype(np.uint32) << 16
        arr = u.view(np.float32)
    elif dt in _DTYPES:
        arr = np.frombuffer(raw, dtype=_DTYPES[dt][0]).astype(np.float32)
    else:
        raise SafetensorsError(f'Tensor "{name}" is stored as {dt}; only F32, F16, BF16 and F64 are read here. Convert the checkpoint to float32 before saving.', name)
    return arr.reshape(e["shape"]).copy()


def read_safetensors(buf: bytes) -> Tuple[Dict[str, np.ndarray], Optional[Dict[str, str]]]:
    f = parse_safetensors(buf)
    return {n: tensor_array(f, n) for n in f.order}, f.metadata


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


def _object(text: str) -> Optional[Dict]:
    try:
        v = json.loads(text)
    except ValueError:
        return None
    return v if isinstance(v, dict) else None


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
    layers = [int(n.split(".")[2]) for n in f.header if n.startswith("enc.layers.") and n.split(".")[2].isdigit()]
    if layers:
        if max(layers) >= 1024:
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
    problems = validate_config(cfg)
    if problems:
        raise SafetensorsError(f"The model config for this file is invalid ({'; '.join(problems)}). Load it with a valid explicit config.")
    return cfg, ("caller" if caller_complete else (source or "shapes"))


def read_model(buf: bytes, config: Optional[Dict] = None) -> LoadedModel:
    """Parses, validates every tensor against the config, then converts (float32 torch tensors)."""
    f = parse_safetensors(buf)
    warnings: List[str] = []
    cfg, source = config_from_file(f, config or {}, warnings)
    problems = []
    for name, shape in param_shapes(cfg):
        e = f.header.get(name)
        if e is None:
            problems.append((name, f'Tensor "{name}" (shape {list(shape)}) is missing. The file holds a different model or is incomplete: load it with the config it was trained with.'))
        elif tuple(e["shape"]) != tuple(shape):
            problems.append((name, f'Tensor "{name}" has shape {e["shape"]} but the config needs {list(shape)}. The file holds a different model or is incomplete: load it with the config it was trained with.'))
    if problems:
        raise SafetensorsError(problems[0][1], problems[0][0])
    expected = {n for n, _ in param_shapes(cfg)}
    extra = [n for n in f.order if n not in expected]
    if extra:
        warnings.append(f"Ignored {len(extra)} tensor(s) the config does not use: {', '.join(extra[:8])}.")
    tensors = {}
    for name, _ in param_shapes(cfg):
        arr = tensor_array(f, name)
        bad = int((~np.isfinite(arr)).sum())
        if bad:
            warnings.append(f'Tensor "{name}" has {bad} NaN/infinite value(s): the model will score NaN (was training diverging?).')
        tensors[name] = torch.from_numpy(arr)
    meta = dict(f.metadata or {})
    training = None
    if META_TRAINING in meta:
        training = _object(meta[META_TRAINING])
        if training is None:
            warnings.append("The training summary in the metadata is not JSON; ignored.")
    return LoadedModel(cfg, source, tensors, meta, training, warnings)


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
