"""The safetensors format as the app reads and writes it (src/engine/io/safetensors.ts), check for check:
`u64 LE N` · N bytes of JSON header · data. Every file the app refuses is refused here with a
SafetensorsError saying why, and every file it reads is read here (src/engine/io/modelFile.verdicts.test.ts
compares both on 1,000 mutated files). The header is read as JSON.parse reads it: numbers are doubles, NaN
and Infinity are not JSON, any nesting depth parses. No dependency on the `safetensors` package."""
from __future__ import annotations

import json
import math
import struct
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import numpy as np

from . import jsonparse

# The reference implementation's limit; a longer "header" means the file is something else.
MAX_HEADER_BYTES = 100_000_000
_DTYPES = {"F32": (np.dtype("<f4"), 4), "F16": (np.dtype("<f2"), 2), "F64": (np.dtype("<f8"), 8)}
_ITEM = {"BOOL": 1, "U8": 1, "I8": 1, "F8_E5M2": 1, "F8_E4M3": 1, "I16": 2, "U16": 2, "F16": 2, "BF16": 2, "I32": 4, "U32": 4, "F32": 4, "I64": 8, "U64": 8, "F64": 8}


class SafetensorsError(ValueError):
    def __init__(self, message: str, tensor: Optional[str] = None) -> None:
        super().__init__(message)
        self.tensor = tensor


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
    # Accepted oddities (unused bytes between tensors), as the app reports them.
    warnings: List[str] = field(default_factory=list)


# The app's JSON.parse: every number a double (correctly rounded, as float() is), no NaN / Infinity, any depth.
def not_json_constant(name: str):
    raise ValueError(f"{name} is not JSON")


def js_parse(text: str):
    """JSON.parse(text) as Python values: numbers are floats (the doubles JSON.parse gives)."""
    return jsonparse.loads(text, parse_int=float, parse_float=float, parse_constant=not_json_constant)


def _kind(v) -> str:
    """How the app names a JSON value in messages: "a number", "an object", "null"…"""
    if v is None:
        return "null"
    if isinstance(v, list):
        return "an array"
    if isinstance(v, dict):
        return "an object"
    return "a boolean" if isinstance(v, bool) else "a string" if isinstance(v, str) else "a number"


_MAX_SAFE = 2**53 - 1


def _is_count(v) -> bool:
    """Number.isSafeInteger(v) && v >= 0 (-0 included, as in JS); bool is not a number."""
    if type(v) is int:
        return 0 <= v <= _MAX_SAFE
    return type(v) is float and v.is_integer() and 0 <= v <= _MAX_SAFE


def numel(shape) -> float:
    """Product of the dims in doubles, as the app computes it; NaN when it is not a safe integer."""
    n = 1.0
    for d in shape:
        n *= float(d)
    return n if math.isfinite(n) and n.is_integer() and abs(n) <= _MAX_SAFE else math.nan


def _fmt_shape(shape) -> str:
    return "[" + ", ".join(str(int(d)) for d in shape) + "]"


def parse_safetensors(buf: bytes) -> RawFile:
    """The app's parseHeader (src/engine/io/safetensors.ts), check for check and message for message."""
    not_st = "Is this a .safetensors file (and was it downloaded completely)?"
    if len(buf) < 8:
        raise SafetensorsError(f"The file is {len(buf)} bytes long, shorter than the 8-byte header length of a safetensors file. {not_st}")
    (n,) = struct.unpack("<Q", buf[:8])
    if n > MAX_HEADER_BYTES:
        raise SafetensorsError(f"The header length field says {n} bytes, beyond any real safetensors header (limit {MAX_HEADER_BYTES}). {not_st}")
    if 8 + n > len(buf):
        raise SafetensorsError(f"The header length field says {n} bytes but only {len(buf) - 8} follow it: the file is truncated. {not_st}")
    try:
        text = bytes(buf[8 : 8 + n]).decode("utf-8")
    except UnicodeDecodeError:
        raise SafetensorsError(f"The header is not valid UTF-8 text. {not_st}") from None
    # TextDecoder drops a leading BOM; the byte check below then refuses it, as the app does.
    try:
        head = js_parse(text[1:] if text.startswith("\ufeff") else text)
    except ValueError as e:
        raise SafetensorsError(f"The header is not JSON ({e}). {not_st}") from None
    if not isinstance(head, dict):
        raise SafetensorsError(f"The header is JSON but not an object of tensors. {not_st}")
    if buf[8] != 0x7B:
        what = "a UTF-8 byte-order mark" if buf[8] == 0xEF else f"whitespace (byte 0x{buf[8]:02x})"
        raise SafetensorsError(f'The header starts with {what}; a safetensors header must begin with "{{". Re-save the file with a safetensors library.')
    data = memoryview(buf)[8 + n :]
    meta = None
    entries: Dict[str, Dict] = {}
    for name, value in head.items():
        if name == "__metadata__":
            meta = _check_metadata(value)
        else:
            entries[name] = _check_entry(name, value, len(data))
    order = sorted(entries, key=lambda k: (entries[k]["data_offsets"][0], entries[k]["data_offsets"][1]))
    return RawFile(entries, meta, data, order, _check_layout(entries, order, len(data)))


def _check_metadata(value) -> Dict[str, str]:
    if not isinstance(value, dict):
        raise SafetensorsError('The header\'s "__metadata__" is not an object of strings; the file is malformed (re-save it).')
    for k, v in value.items():
        if not isinstance(v, str):
            raise SafetensorsError(f'"__metadata__.{k}" is {_kind(v)}; the format allows only string values (re-save the file with string metadata).')
    return value


def _check_entry(name: str, value, data_length: int) -> Dict:
    def bad(what: str) -> SafetensorsError:
        return SafetensorsError(f'Tensor "{name}": {what}. The file is malformed; re-export it.', name)

    if not isinstance(value, dict):
        raise bad("its header entry is not an object")
    if "dtype" not in value:
        raise bad('"dtype" is missing')
    dtype = value["dtype"]
    if not isinstance(dtype, str):
        raise bad('"dtype" is not a string')
    if "shape" not in value:
        raise bad('"shape" is missing')
    shape = value["shape"]
    if not isinstance(shape, list) or not all(_is_count(d) for d in shape):
        raise bad('"shape" is not a list of non-negative integers')
    if "data_offsets" not in value:
        raise bad('"data_offsets" is missing')
    offsets = value["data_offsets"]
    if not isinstance(offsets, list) or len(offsets) != 2 or not all(_is_count(o) for o in offsets):
        raise bad('"data_offsets" is not a pair of non-negative integers [begin, end]')
    begin, end = int(offsets[0]), int(offsets[1])
    if end < begin:
        raise bad(f"data_offsets [{begin}, {end}] end before they begin")
    if end > data_length:
        raise bad(f"data_offsets [{begin}, {end}] reach past the end of the data ({data_length} bytes); the file may be truncated")
    size = _ITEM.get(dtype)
    # Unknown dtypes cannot be size-checked here; reading one is refused (see read_model).
    if size is not None:
        count = numel(shape)
        if not count * size == end - begin:
            total = "NaN" if math.isnan(count) else str(int(count) * size)
            raise bad(f"shape {_fmt_shape(shape)} × {size} bytes ({dtype}) = {total} bytes, but data_offsets [{begin}, {end}] hold {end - begin}")
    return {"dtype": dtype, "shape": [int(d) for d in shape], "data_offsets": [begin, end]}


def _check_layout(entries: Dict[str, Dict], order: List[str], data_length: int) -> List[str]:
    """Overlapping tensors are refused (one would read another's bytes); empty ones occupy nothing. Unused
    bytes are only reported: the spec asks for a gap-free layout, but the tensors themselves are intact."""
    warnings = []
    reach = 0
    last = None
    for name in order:
        b, e = entries[name]["data_offsets"]
        if b == e:
            continue
        if last is not None and b < reach:
            lb, le = entries[last]["data_offsets"]
            raise SafetensorsError(f'Tensor "{name}" (bytes {b}..{e}) overlaps tensor "{last}" (bytes {lb}..{le}); the file is malformed, re-export it.', name)
        if b > reach:
            warnings.append(f'{b - reach} unused bytes before tensor "{name}" (the format expects none; the tensors are intact).')
        reach = e
        last = name
    if reach < data_length:
        warnings.append(f"{data_length - reach} unused bytes after the last tensor (the format expects none; the tensors are intact).")
    return warnings


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
