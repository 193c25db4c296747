"""Model inputs, as the app's src/engine/data/tokenize/tokenize.ts: ids = [CLS] + bpe(question) + [SEP] + bpe(gen_text),
right-truncated to maxLen ids in total (the reference cuts to maxLen−1 and then prepends CLS: the same ids).
CLS = SEP = 50256 are inserted as ids; `<|endoftext|>` typed in the text stays 7 ordinary tokens. Texts are
encoded only as far as max_len needs (bpe.encode_bounded, the app's rule), so a huge candidate costs no more
than a cut one. As in the app, texts are encoded as if ENCODED_IDS ids were kept whatever max_len is, so a
candidate's ids are the same prefix for every max_len up to it (the app tokenizes its data once at 4096)."""
from __future__ import annotations

import os
from typing import List, Optional, Sequence

from .bpe import EOT, encode_bounded

# src/engine/data/tokenize/tokenize.ts ENCODED_IDS: the app's 4096-id cap plus the one more id its Rerank asks for.
ENCODED_IDS = 4097


def model_input(question_ids: Sequence[int], text_ids: Sequence[int], max_len: int, cls_id: int = EOT, sep_id: int = EOT) -> List[int]:
    if not isinstance(max_len, int) or max_len < 2:
        raise ValueError(f"maxLen must be an integer ≥ 2 (got {max_len})")
    ids = [cls_id, *question_ids, sep_id, *text_ids]
    return ids[:max_len]


def _encode_question(question: str, max_len: int) -> List[int]:
    return encode_bounded(question, max(max_len, ENCODED_IDS) - 2)


def _encode_text(q: Sequence[int], gen_text: str, max_len: int) -> List[int]:
    """gen_text's ids, as far as the bound needs after [CLS] q [SEP] (none when q alone overflows it)."""
    keep = max(max_len, ENCODED_IDS)
    return [] if len(q) > keep - 2 else encode_bounded(gen_text, keep - 2 - len(q))


def encode_input(question: str, gen_text: str, max_len: int, cls_id: int = EOT, sep_id: int = EOT) -> List[int]:
    q = _encode_question(question, max_len)
    return model_input(q, _encode_text(q, gen_text, max_len), max_len, cls_id, sep_id)


def _encode_group(args):
    question, texts, max_len, cls_id, sep_id = args
    q = _encode_question(question, max_len)
    return [model_input(q, _encode_text(q, t, max_len), max_len, cls_id, sep_id) for t in texts]


def tokenize_groups(groups, max_len: int, cls_id: int = EOT, sep_id: int = EOT, workers: Optional[int] = None) -> List[List[List[int]]]:
    """Per group, per candidate: the model input ids. Big datasets are tokenized on several processes
    (`workers`, default: the CPU count, 1 for small inputs); results do not depend on the split."""
    jobs = [(g.question, [c.gen_text for c in g.candidates], max_len, cls_id, sep_id) for g in groups]
    n_candidates = sum(len(j[1]) for j in jobs)
    if workers is None:
        workers = min(os.cpu_count() or 1, 16) if n_candidates > 20000 else 1
    if workers <= 1:
        return [_encode_group(j) for j in jobs]
    import multiprocessing as mp

    with mp.get_context("spawn" if os.name == "nt" else "fork").Pool(workers) as pool:
        return pool.map(_encode_group, jobs, chunksize=max(1, len(jobs) // (workers * 8)))
