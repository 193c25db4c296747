"""GPT-2 byte-level BPE (r50k_base) in plain Python, equal to the app's tokenizer (gpt-tokenizer 4.0.0) and
to tiktoken on the fixture's 45 tricky strings.

- The ranks ship with the package (`data/r50k_base.tiktoken.gz`, byte-identical to OpenAI's file, checked
  by SHA-256 on load).
- Pre-tokenization is GPT-2's split pattern
  `'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+`, written out by hand
  (Python's `re` has no `\\p{..}` and Debian's python3 has no `regex` module by default), with the app's JS
  meaning of `\\s`. Letters and numbers come from `unicodedata` (Python's Unicode version; characters
  assigned after it may split differently from the browser's: none in ordinary text).
- Everything is ordinary text: `<|endoftext|>` typed in a question is 7 plain tokens, never id 50256.
  Special ids are inserted as ids by the caller (see tokenize.py).
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import os
import unicodedata
from functools import lru_cache
from typing import Dict, List, Optional

from .js import WS_SET, well_formed

EOT = 50256
VOCAB_SIZE = 50257
RANKS_SHA256 = "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930"
RANKS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "r50k_base.tiktoken.gz")

_ranks: Optional[Dict[bytes, int]] = None
_decoder: Optional[Dict[int, bytes]] = None


def ranks() -> Dict[bytes, int]:
    """token bytes → rank (= id), loaded once."""
    global _ranks, _decoder
    if _ranks is None:
        with open(RANKS_FILE, "rb") as f:
            raw = gzip.decompress(f.read())
        if hashlib.sha256(raw).hexdigest() != RANKS_SHA256:
            raise RuntimeError(f"{RANKS_FILE} is not the r50k_base rank file (SHA-256 mismatch): reinstall the package")
        table: Dict[bytes, int] = {}
        for line in raw.split(b"\n"):
            if line:
                tok, rank = line.split(b" ")
                table[base64.b64decode(tok)] = int(rank)
        _ranks = table
        _decoder = {v: k for k, v in table.items()}
    return _ranks


# ---- pre-tokenization -------------------------------------------------------------------------------

_L, _N, _W, _O = 0, 1, 2, 3  # letter, number, JS whitespace, other


@lru_cache(maxsize=65536)
def _cls(ch: str) -> int:
    if ch in WS_SET:
        return _W
    cat = unicodedata.category(ch)
    if cat[0] == "L":
        return _L
    if cat[0] == "N":
        return _N
    return _O


_CONTRACTIONS = ("s", "t", "re", "ve", "m", "ll", "d")


def split_pieces(text: str) -> List[str]:
    """The GPT-2 pattern's matches, in order (their concatenation is `text`)."""
    out: List[str] = []
    n = len(text)
    cls = [_cls(c) for c in text]
    i = 0
    while i < n:
        c = text[i]
        # 's|'t|'re|'ve|'m|'ll|'d
        if c == "'":
            hit = next((s for s in _CONTRACTIONS if text.startswith(s, i + 1)), None)
            if hit is not None:
                out.append(text[i : i + 1 + len(hit)])
                i += 1 + len(hit)
                continue
        # ' ?\p{L}+' | ' ?\p{N}+' | ' ?[^\s\p{L}\p{N}]+'
        start = i + 1 if (c == " " and i + 1 < n and cls[i + 1] != _W) else i
        k = cls[start]
        if k != _W:
            j = start + 1
            while j < n and cls[j] == k:
                j += 1
            out.append(text[i:j])
            i = j
            continue
        # '\s+(?!\S)' then '\s+': a whitespace run, leaving its last char to prefix the next word
        j = i + 1
        while j < n and cls[j] == _W:
            j += 1
        if j < n and j - i > 1:
            j -= 1
        out.append(text[i:j])
        i = j
    return out


# ---- byte-pair merges -------------------------------------------------------------------------------


def _merge(piece: bytes, table: Dict[bytes, int]) -> List[int]:
    rank = table.get(piece)
    if rank is not None:
        return [rank]
    parts = [piece[i : i + 1] for i in range(len(piece))]
    while len(parts) > 1:
        best = -1
        best_rank = None
        for i in range(len(parts) - 1):
            r = table.get(parts[i] + parts[i + 1])
            if r is not None and (best_rank is None or r < best_rank):
                best, best_rank = i, r
        if best < 0:
            break
        parts[best : best + 2] = [parts[best] + parts[best + 1]]
    return [table[p] for p in parts]


@lru_cache(maxsize=1 << 18)
def _encode_piece(piece: str) -> tuple:
    return tuple(_merge(piece.encode("utf-8"), ranks()))


def encode_ordinary(text: str) -> List[int]:
    """BPE ids of `text`, every character as ordinary text (`<|endoftext|>` included)."""
    text = well_formed(text)
    out: List[int] = []
    for piece in split_pieces(text):
        out.extend(_encode_piece(piece))
    return out


def encode_with_special(text: str) -> List[int]:
    """tiktoken's `encode(text, allowed_special={"<|endoftext|>"})`: the literal becomes id 50256.
    Not used for model inputs (the app never lets user text become the special id); for tests."""
    pieces = text.split("<|endoftext|>")
    out: List[int] = []
    for k, p in enumerate(pieces):
        if k:
            out.append(EOT)
        out.extend(encode_ordinary(p))
    return out


def decode(ids) -> str:
    ranks()
    assert _decoder is not None
    data = b"".join(b"<|endoftext|>" if i == EOT else _decoder[i] for i in ids)
    return data.decode("utf-8", "replace")
