"""Train/validation split by group, seeded, exactly as the app's `splitGroups` (src/engine/data/split.ts).
Kind 'mixed' (every split before kinds): the groups with both a correct and an incorrect candidate,
shuffled with mulberry32(seed), cut at round(0.8 · n) with both parts non-empty when n ≥ 2. Kind 'all':
the same over every group, training on the groups with both labels among the training part, so validation
figures cover every held-out question. Held-out sources on top of either: the same groups held out,
training on the other sources' candidates, validating on the held-out sources' ones. And the record of a
split that model files and checkpoints carry, so a run continued from a model validates on the groups (and
candidates) the model never trained on."""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

from .js import js_round
from .rng import Rng, shuffle_in_place

DEFAULT_SPLIT_SEED = 42
DEFAULT_TRAIN_FRACTION = 0.8
SPLIT_KINDS = ("mixed", "all")
# What a record without `kind` means: every split made before kinds existed was 'mixed'.
RECORDED_SPLIT_KIND_DEFAULT = "mixed"


def _mixed(ls: Sequence[int]) -> bool:
    return 0 < sum(ls) < len(ls)


def trainable_groups(labels: Sequence[Sequence[int]]) -> List[int]:
    """Indices of the groups (given as per-group label lists) with at least one 1 and one 0, ascending."""
    return [g for g, ls in enumerate(labels) if _mixed(ls)]


def split_groups(labels: Sequence[Sequence[int]], seed: int = DEFAULT_SPLIT_SEED, train_fraction: float = DEFAULT_TRAIN_FRACTION, kind: str = RECORDED_SPLIT_KIND_DEFAULT) -> Tuple[List[int], List[int]]:
    """(train, val) group indices, without held-out sources (holdout_split adds those)."""
    groups = trainable_groups(labels) if kind == "mixed" else list(range(len(labels)))
    train, val = _cut(groups, seed, train_fraction, kind)
    return (train if kind == "mixed" else [g for g in train if _mixed(labels[g])]), val


def holdout_keep(group_start: Sequence[int], sources: Sequence[Optional[str]], val: Sequence[int], holdout: Sequence[str]) -> List[int]:
    """1 per candidate that takes part when `holdout` sources are held out (the app's holdoutKeep): in the
    validation groups the held-out sources' candidates, everywhere else the others' (no source: never held out)."""
    n = group_start[-1] if group_start else 0
    if len(sources) != n:
        raise ValueError(f"holding out sources needs each candidate's source ({n} candidates, {len(sources)} sources given)")
    held = set(holdout)
    in_val = set(val)
    keep = [0] * n
    for g in range(len(group_start) - 1):
        for i in range(group_start[g], group_start[g + 1]):
            is_held = sources[i] is not None and sources[i] in held
            keep[i] = 1 if (is_held if g in in_val else not is_held) else 0
    return keep


def holdout_split(labels: Sequence[int], group_start: Sequence[int], sources: Sequence[Optional[str]], seed: int, train_fraction: float, kind: str, holdout: Sequence[str]) -> Tuple[List[int], List[int], Optional[List[int]]]:
    """The app's splitGroups with candidates: (train, val, keep); keep is None when no source is held out.
    `labels` and `sources` per candidate, grouped by `group_start`."""
    per_group = [labels[group_start[g] : group_start[g + 1]] for g in range(len(group_start) - 1)]
    if not holdout:
        train, val = split_groups(per_group, seed, train_fraction, kind)
        return train, val, None
    # The groups held out are those of the split without sources; training first takes every group of its part.
    groups = trainable_groups(per_group) if kind == "mixed" else list(range(len(per_group)))
    train_part, val = _cut(groups, seed, train_fraction, kind)
    keep = holdout_keep(group_start, sources, val, holdout)

    def kept_labels(g):
        return [labels[i] for i in range(group_start[g], group_start[g + 1]) if keep[i]]

    train = [g for g in train_part if _mixed(kept_labels(g))]
    val = [g for g in val if kept_labels(g)]
    return train, val, keep


def _cut(groups: List[int], seed: int, train_fraction: float, kind: str) -> Tuple[List[int], List[int]]:
    if not (0 < train_fraction <= 1):
        raise ValueError(f"trainFraction must be in (0, 1] (got {train_fraction})")
    if kind not in SPLIT_KINDS:
        raise ValueError(f"split kind must be 'mixed' or 'all' (got {kind!r})")
    shuffle_in_place(groups, Rng(seed))
    n = len(groups)
    n_train = js_round(n * train_fraction)
    if train_fraction < 1 and n >= 2:
        n_train = min(n - 1, max(1, n_train))
    return groups[:n_train], groups[n_train:]


# ---- the split a model file records (the app and python write `split`; older files fall back) -----------

_SHA256 = re.compile(r"^sha256:[0-9a-f]{64}$")


def split_record(seed: int, train_fraction: float, dataset: Optional[str], kind: str = RECORDED_SPLIT_KIND_DEFAULT, holdout_sources: Optional[Sequence[str]] = None) -> Dict:
    """The contract's record (the app's splitRecord): `{"seed", "trainFraction", "dataset": "sha256:<hex>" | None,
    "kind": "mixed" | "all"}`, with `"holdoutSources": [...]` only when some sources are held out."""
    out = {"seed": seed, "trainFraction": train_fraction, "dataset": dataset, "kind": kind}
    if holdout_sources:
        out["holdoutSources"] = list(holdout_sources)
    return out


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) or (isinstance(v, float) and v.is_integer())


def recorded_split(training: Optional[Dict]) -> Optional[Dict]:
    """The split a training summary records, as a split_record: `split` (both sides write it; without `kind`
    it is 'mixed'), else the app's older `splitSeed` (its fraction was always 0.8), else python's older
    `settings.seed` and `settings.train_fraction` (0.8 when absent), both 'mixed'; None when it records none.
    A malformed `split` raises ValueError naming the field."""
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
        k = s.get("kind")
        if k is not None and k not in SPLIT_KINDS:
            raise ValueError(f'split.kind must be "mixed" or "all" (got {k!r})')
        h = s.get("holdoutSources")
        if h is not None and not (isinstance(h, list) and all(isinstance(x, str) for x in h)):
            raise ValueError(f"split.holdoutSources must be a list of source names (got {h!r})")
        return split_record(int(s["seed"]), f, d, k or RECORDED_SPLIT_KIND_DEFAULT, h)
    if _is_int(training.get("splitSeed")):
        return split_record(int(training["splitSeed"]), DEFAULT_TRAIN_FRACTION, None)
    settings = training.get("settings")
    if isinstance(settings, dict) and _is_int(settings.get("seed")):
        f = settings.get("train_fraction", DEFAULT_TRAIN_FRACTION)
        if isinstance(f, (int, float)) and not isinstance(f, bool) and 0 < f <= 1:
            return split_record(int(settings["seed"]), f, None)
    return None


def recorded_figure_seed(training: Optional[Dict], fallback: int) -> int:
    """The seed a model's figures are drawn with (bootstrap, curve subsets, calibration folds), as its own
    validations drew them (the app's recordedFigureSeed): the run's `settings.seed` it records, else its
    split's seed, else `fallback`."""
    settings = training.get("settings") if isinstance(training, dict) else None
    if isinstance(settings, dict) and _is_int(settings.get("seed")):
        return int(settings["seed"])
    try:
        rec = recorded_split(training)
    except ValueError:
        rec = None
    return int(rec["seed"]) if rec is not None else fallback


def short_id(dataset: str) -> str:
    return dataset[: len("sha256:") + 8] + "…"


def split_for_init(
    training: Optional[Dict], model_name: str, data_name: str, dataset: str, seed: int, train_fraction: float, kind: str = RECORDED_SPLIT_KIND_DEFAULT, holdout_sources: Optional[Sequence[str]] = None
) -> Tuple[Dict, List[str]]:
    """The split a run started from a model file uses, and what to tell the user (lines starting "Warning:"
    are warnings): the model's recorded split (kind and held-out sources included) when it was trained on this
    file (`dataset` is its identity); the run's own (`seed`, `train_fraction`, `kind`, `holdout_sources`) when
    it was trained on another; the recorded split, unchecked, when it does not record its file."""
    own = split_record(seed, train_fraction, dataset, kind, holdout_sources)
    try:
        rec = recorded_split(training)
    except ValueError as e:
        return own, [f"Warning: {model_name} records a split this version cannot read ({e}): splitting {data_name} with --seed {seed} and --train-fraction {train_fraction}; if the model was trained on this file, validation may hold groups it trained on."]
    if rec is None:
        return own, [f"Warning: {model_name} records no split: splitting {data_name} with --seed {seed} and --train-fraction {train_fraction}; if the model was trained on this file with another split, validation may hold groups it trained on."]
    used = split_record(rec["seed"], rec["trainFraction"], dataset, rec["kind"], rec.get("holdoutSources"))
    said = f"seed {rec['seed']}, train fraction {rec['trainFraction']}" + ("" if rec["kind"] == "mixed" else f", kind {rec['kind']}")
    if rec.get("holdoutSources"):
        said += f", held-out sources {','.join(rec['holdoutSources'])}"
    if rec["dataset"] == dataset:
        return used, [f"{model_name} was trained on this file: splitting with its split ({said})."]
    if rec["dataset"] is not None:
        return own, [
            f"Warning: {model_name} was trained on another file ({short_id(rec['dataset'])}): its split does not apply to {data_name}, so validation may hold groups it never saw or saw — figures are not comparable. Splitting with --seed {seed} and --train-fraction {train_fraction}."
        ]
    return used, [
        f"Warning: {model_name} does not record which file it was trained on: splitting {data_name} with the split it records ({said}), as if it were this file. This cannot be checked; if it was trained on another file, validation figures are not comparable."
    ]
