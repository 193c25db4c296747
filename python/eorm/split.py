"""Train/validation split by group, seeded, exactly as the app's `splitGroups` (src/engine/data/split.ts):
the groups with both a correct and an incorrect candidate, shuffled with mulberry32(seed), cut at
round(0.8 · n) with both parts non-empty when n ≥ 2; and the record of a split that model files and
checkpoints carry, so a run continued from a model validates on the groups the model never trained on."""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

from .js import js_round
from .rng import Rng, shuffle_in_place

DEFAULT_SPLIT_SEED = 42
DEFAULT_TRAIN_FRACTION = 0.8


def trainable_groups(labels: Sequence[Sequence[int]]) -> List[int]:
    """Indices of the groups (given as per-group label lists) with at least one 1 and one 0, ascending."""
    return [g for g, ls in enumerate(labels) if 0 < sum(ls) < len(ls)]


def split_groups(labels: Sequence[Sequence[int]], seed: int = DEFAULT_SPLIT_SEED, train_fraction: float = DEFAULT_TRAIN_FRACTION) -> Tuple[List[int], List[int]]:
    if not (0 < train_fraction <= 1):
        raise ValueError(f"trainFraction must be in (0, 1] (got {train_fraction})")
    groups = trainable_groups(labels)
    shuffle_in_place(groups, Rng(seed))
    n = len(groups)
    n_train = js_round(n * train_fraction)
    if train_fraction < 1 and n >= 2:
        n_train = min(n - 1, max(1, n_train))
    return groups[:n_train], groups[n_train:]


# ---- the split a model file records (the app and python write `split`; older files fall back) -----------

_SHA256 = re.compile(r"^sha256:[0-9a-f]{64}$")


def split_record(seed: int, train_fraction: float, dataset: Optional[str]) -> Dict:
    """The contract's record: `{"seed", "trainFraction", "dataset": "sha256:<hex>" | None}`."""
    return {"seed": seed, "trainFraction": train_fraction, "dataset": dataset}


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) or (isinstance(v, float) and v.is_integer())


def recorded_split(training: Optional[Dict]) -> Optional[Dict]:
    """The split a training summary records, as a split_record: `split` (both sides write it), else the app's
    older `splitSeed` (its fraction was always 0.8), else python's older `settings.seed` and
    `settings.train_fraction` (0.8 when absent); None when it records none. A malformed `split` raises
    ValueError naming the field."""
    if not isinstance(training, dict):
        return None
    s = training.get("split")
    if s is not None:
        if not isinstance(s, dict):
            raise ValueError("split must be an object {seed, trainFraction, dataset}")
        if not _is_int(s.get("seed")):
            raise ValueError(f"split.seed must be an integer (got {s.get('seed')!r})")
        f = s.get("trainFraction")
        if not (isinstance(f, (int, float)) and not isinstance(f, bool) and 0 < f <= 1):
            raise ValueError(f"split.trainFraction must be a number in (0, 1] (got {f!r})")
        d = s.get("dataset")
        if d is not None and not (isinstance(d, str) and _SHA256.match(d)):
            raise ValueError(f'split.dataset must be "sha256:<64 lowercase hex digits>" or null (got {d!r})')
        return split_record(int(s["seed"]), f, d)
    if _is_int(training.get("splitSeed")):
        return split_record(int(training["splitSeed"]), DEFAULT_TRAIN_FRACTION, None)
    settings = training.get("settings")
    if isinstance(settings, dict) and _is_int(settings.get("seed")):
        f = settings.get("train_fraction", DEFAULT_TRAIN_FRACTION)
        if isinstance(f, (int, float)) and not isinstance(f, bool) and 0 < f <= 1:
            return split_record(int(settings["seed"]), f, None)
    return None


def short_id(dataset: str) -> str:
    return dataset[: len("sha256:") + 8] + "…"


def split_for_init(training: Optional[Dict], model_name: str, data_name: str, dataset: str, seed: int, train_fraction: float) -> Tuple[Dict, List[str]]:
    """The split a run started from a model file uses, and what to tell the user (lines starting "Warning:"
    are warnings): the model's recorded split when it was trained on this file (`dataset` is its identity);
    the run's own (`seed`, `train_fraction`) when it was trained on another; the recorded seed and fraction,
    unchecked, when it does not record its file."""
    own = split_record(seed, train_fraction, dataset)
    try:
        rec = recorded_split(training)
    except ValueError as e:
        return own, [f"Warning: {model_name} records a split this version cannot read ({e}): splitting {data_name} with --seed {seed} and --train-fraction {train_fraction}; if the model was trained on this file, validation may hold groups it trained on."]
    if rec is None:
        return own, [f"Warning: {model_name} records no split: splitting {data_name} with --seed {seed} and --train-fraction {train_fraction}; if the model was trained on this file with another split, validation may hold groups it trained on."]
    used = split_record(rec["seed"], rec["trainFraction"], dataset)
    said = f"seed {rec['seed']}, train fraction {rec['trainFraction']}"
    if rec["dataset"] == dataset:
        return used, [f"{model_name} was trained on this file: splitting with its split ({said})."]
    if rec["dataset"] is not None:
        return own, [
            f"Warning: {model_name} was trained on another file ({short_id(rec['dataset'])}): its split does not apply to {data_name}, so validation may hold groups it never saw or saw — figures are not comparable. Splitting with --seed {seed} and --train-fraction {train_fraction}."
        ]
    return used, [
        f"Warning: {model_name} does not record which file it was trained on: splitting {data_name} with the split it records ({said}), as if it were this file. This cannot be checked; if it was trained on another file, validation figures are not comparable."
    ]
