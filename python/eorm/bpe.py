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
- `encode_bounded` stops once a cap is passed, with the app's rule (src/engine/data/tokenize/boundedBpe.ts): a
  pre-token over LONG_PIECE_BYTES that must by itself pass the cap is encoded CHUNK_BYTES at a time; so a
  candidate's cost is bounded and the ids are the app's, equal to tiktoken's except inside the pre-token
  within which the cap falls. Long pre-tokens are merged with a heap (the plain loop is quadratic).
"""
from __future__ import annotations

import base64
import gzip
import hashlib
import heapq
import os
import re
import unicodedata
from functools import lru_cache
from typing import Dict, FrozenSet, Iterator, List, Optional

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


@lru_cache(maxsize=1024)
def _same_char_run(ch: str):
    return re.compile(re.escape(ch) + "+")


def _run_end(text: str, j: int, n: int, k: int) -> int:
    """The first index from j whose class is not k; a run of one repeated character is skipped at C speed."""
    while j < n:
        ch = text[j]
        if _cls(ch) != k:
            return j
        if j + 1 < n and text[j + 1] == ch:
            j = _same_char_run(ch).match(text, j).end()
        else:
            j += 1
    return j


def iter_pieces(text: str) -> Iterator[str]:
    """The GPT-2 pattern's matches, in order (their concatenation is `text`), as they are found."""
    n = len(text)
    i = 0
    while i < n:
        c = text[i]
        # 's|'t|'re|'ve|'m|'ll|'d
        if c == "'":
            hit = next((s for s in _CONTRACTIONS if text.startswith(s, i + 1)), None)
            if hit is not None:
                yield text[i : i + 1 + len(hit)]
                i += 1 + len(hit)
                continue
        # ' ?\p{L}+' | ' ?\p{N}+' | ' ?[^\s\p{L}\p{N}]+'
        start = i + 1 if (c == " " and i + 1 < n and _cls(text[i + 1]) != _W) else i
        k = _cls(text[start])
        if k != _W:
            j = _run_end(text, start + 1, n, k)
            yield text[i:j]
            i = j
            continue
        # '\s+(?!\S)' then '\s+': a whitespace run, leaving its last char to prefix the next word
        j = _run_end(text, i + 1, n, _W)
        if j < n and j - i > 1:
            j -= 1
        yield text[i:j]
        i = j


def split_pieces(text: str) -> List[str]:
    """The GPT-2 pattern's matches, in order (their concatenation is `text`)."""
    return list(iter_pieces(text))


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


def _merge_heap(piece: bytes, table: Dict[bytes, int]) -> List[int]:
    """The same merges as _merge (lowest rank first, the leftmost on ties) with a heap: O(n log n)."""
    rank = table.get(piece)
    if rank is not None:
        return [rank]
    n = len(piece)
    end = list(range(1, n + 1))
    prev = list(range(-1, n - 1))
    # Rank of merging the part at i with the next; -1: none (or i no longer starts a part).
    pair = [-1] * n
    heap = []
    get = table.get
    for i in range(n - 1):
        r = get(piece[i : i + 2], -1)
        pair[i] = r
        if r >= 0:
            heap.append((r << 32) | i)
    heapq.heapify(heap)
    pop, push = heapq.heappop, heapq.heappush
    mask = (1 << 32) - 1
    while heap:
        key = pop(heap)
        r, a = key >> 32, key & mask
        if pair[a] != r:
            continue  # stale: that pair was merged or changed since
        b = end[a]
        e = end[a] = end[b]
        pair[b] = -1
        if e < n:
            prev[e] = a
            r = pair[a] = get(piece[a : end[e]], -1)
            if r >= 0:
                push(heap, (r << 32) | a)
        else:
            pair[a] = -1
        if a > 0:
            p = prev[a]
            r = pair[p] = get(piece[p:e], -1)
            if r >= 0:
                push(heap, (r << 32) | p)
    out = []
    i = 0
    while i < n:
        out.append(table[piece[i : end[i]]])
        i = end[i]
    return out


# Pre-tokens longer than this many UTF-8 bytes may be cut when they must pass the cap; cut in slices of CHUNK_BYTES.
LONG_PIECE_BYTES = 4096
CHUNK_BYTES = 4096
# Above this length the heap merge is faster than the plain loop.
_HEAP_FROM = 64


def _merge_any(piece: bytes) -> tuple:
    table = ranks()
    return tuple(_merge_heap(piece, table) if len(piece) > _HEAP_FROM else _merge(piece, table))


@lru_cache(maxsize=1 << 18)
def _encode_piece(piece: str) -> tuple:
    return _merge_any(piece.encode("utf-8"))


@lru_cache(maxsize=256)
def _encode_chunk(chunk: bytes) -> tuple:
    return _merge_any(chunk)


_token_sets: Optional[List[tuple]] = None


@lru_cache(maxsize=1024)
def _max_token_bytes(present: FrozenSet[int]) -> int:
    """The longest token (in bytes) made only of bytes in `present`: no token of a BPE of such bytes is longer."""
    global _token_sets
    if _token_sets is None:
        _token_sets = [(frozenset(t), len(t)) for t in ranks()]
    return max((n for s, n in _token_sets if s <= present), default=1)


def _encode_long(piece: bytes, limit: Optional[int], out: List[int]) -> None:
    if limit is None or len(piece) <= (limit + 1 - len(out)) * _max_token_bytes(frozenset(piece)):
        out.extend(_merge_heap(piece, ranks()))
        return
    for at in range(0, len(piece), CHUNK_BYTES):
        if len(out) > limit:
            break
        out.extend(_encode_chunk(piece[at : at + CHUNK_BYTES]))


def encode_bounded(text: str, limit: Optional[int]) -> List[int]:
    """BPE ids of `text` (every character ordinary text), stopping once more than `limit` ids are out: the
    exact ids when there are at most `limit` of them; else more than `limit`, exact up to the pre-token within
    which the cap falls. `limit` None: no cap (encode_ordinary)."""
    text = well_formed(text)
    out: List[int] = []
    for piece in iter_pieces(text):
        if len(piece) * 3 > LONG_PIECE_BYTES:
            b = piece.encode("utf-8")
            if len(b) > LONG_PIECE_BYTES:
                _encode_long(b, limit, out)
                if limit is not None and len(out) > limit:
                    break
                continue
        out.extend(_encode_piece(piece))
        if limit is not None and len(out) > limit:
            break
    return out


def encode_ordinary(text: str) -> List[int]:
    """BPE ids of `text`, every character as ordinary text (`<|endoftext|>` included)."""
    return encode_bounded(text, None)


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
