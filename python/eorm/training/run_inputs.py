"""The run's inputs (src/engine/train/loop.ts RunInputs): the model config, the settings the files record, the
split and the data, once the command line, the checkpoint being resumed, the --init model and the data file
are checked against each other; and the run's step count."""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from .best_metric import DEFAULT_BEST_METRIC, NEW_RUN_BEST_METRIC
from .checkpoint import read_checkpoint
from ..config import GPT2_EOT, GPT2_VOCAB, PRESETS, ModelConfig, make_config
from ..data_files import check_data_files, data_identity, data_name, data_setting, paths_text
from ..dataset import TrainingData, load_training_data_or_exit
from .distributed import Dist, check_ranks_agree
from ..model import TransEBM
from .schedule import warmup_steps
from .kept import keep_candidates
from ..split import holdout_split, recorded_split, short_id, split_for_init, split_record
from ..weights import load_model_file_or_exit

# Settings a resume must share with the checkpoint; the runtime ones below may change (the files keep the checkpoint's).
RESUME_KEYS = ("data", "epochs", "lr", "seed", "warmup_ratio", "weight_decay", "max_grad_norm", "train_fraction", "global_groups_per_step")
RUNTIME_KEYS = ("groups_per_step", "world_size", "micro_batch", "precision")

Log = Callable[..., None]


@dataclass(frozen=True)
class StepCount:
    """The one step count of a run (as src/engine/train/stepCount.ts): step s of an epoch takes groups
    [s·groups_per_step, (s+1)·groups_per_step) of the epoch's order, groups_per_rank of them on each rank."""

    groups_per_rank: int
    groups_per_step: int
    steps_per_epoch: int
    total_steps: int
    warmup_steps: int


def step_count(train_groups: int, groups_per_rank: int, world: int, epochs: int, warmup_ratio: float) -> StepCount:
    k = max(1, groups_per_rank)
    per_step = k * world
    per_epoch = math.ceil(train_groups / per_step)
    total = epochs * per_epoch
    return StepCount(k, per_step, per_epoch, total, warmup_steps(total, warmup_ratio))


@dataclass
class RunInputs:
    cfg: ModelConfig
    # What model files and checkpoint.pt record: a resume's are the checkpoint's.
    settings: Dict
    split: Dict
    data: TrainingData
    train_groups: List[int]
    val_groups: List[int]
    steps: StepCount
    # checkpoint.pt's content when the run resumes, with its path.
    resume_from: Optional[Dict]
    checkpoint_path: Optional[str]
    # The --init model whose weights a new run starts from.
    init_model: Optional[TransEBM]
    # Runtime settings of a resume that differ from the checkpoint's.
    resumed_with: Dict


def model_config(args, init_cfg: Optional[ModelConfig]) -> ModelConfig:
    if init_cfg is not None:
        return init_cfg
    m = dict(PRESETS[args.preset])
    for flag, key in (("d_model", "dModel"), ("n_heads", "nHeads"), ("n_layers", "nLayers"), ("dropout", "dropout"), ("max_len", "maxLen"), ("positional", "positional")):
        v = getattr(args, flag)
        if v is not None:
            m[key] = v
    m["ffnDim"] = args.ffn_dim if args.ffn_dim is not None else 4 * m["dModel"]
    return make_config(vocabSize=GPT2_VOCAB, clsId=GPT2_EOT, sepId=GPT2_EOT, padId=GPT2_EOT, **m)


def flag_settings(args, world: int, custom_model: bool) -> Dict:
    """The run's settings as the command line gives them (what model files and checkpoint.pt record)."""
    k = max(1, args.groups_per_step)
    return {
        "data": data_setting(args.data),
        "epochs": args.epochs,
        "lr": args.lr,
        "seed": args.seed,
        "warmup_ratio": args.warmup_ratio,
        "weight_decay": args.weight_decay,
        "max_grad_norm": args.max_grad_norm,
        "train_fraction": args.train_fraction,
        "global_groups_per_step": k * world,
        "groups_per_step": k,
        "world_size": world,
        "micro_batch": args.micro_batch,
        "precision": args.precision,
        "preset": "custom" if custom_model else args.preset,
        "best_metric": args.best_metric or NEW_RUN_BEST_METRIC,
        # Recorded only where named, so the settings of runs without it read as before.
        **({"selector_fields": list(dict.fromkeys(args.selector_field))} if getattr(args, "selector_field", None) else {}),
    }


def resumed_settings(ckpt: Dict, ckpt_path: str, flags: Dict, data_id: str, data_path: str, log: Log) -> Tuple[Dict, Dict, Dict]:
    """A resume continues the checkpoint's run: its settings and split, recorded as they were (so the files
    equal those of the run uninterrupted), once the command line and the data file are checked against them.
    Returns (settings, split, runtime flags that differ from the checkpoint's)."""
    saved = ckpt["settings"]
    diff = [key for key in RESUME_KEYS if saved.get(key) != flags[key]]
    if diff:
        changes = ", ".join(f"{d}: {saved.get(d)} → {flags[d]}" for d in diff)
        raise SystemExit(f"{ckpt_path} was written by a run with other settings ({changes}). Use another --out, or --resume never to start over.")
    # A checkpoint from before splits were recorded: its settings' seed and fraction; one from before kinds: 'mixed'.
    split = recorded_split({"split": ckpt["split"]}) if ckpt.get("split") else split_record(saved["seed"], saved["train_fraction"], None)
    if split["dataset"] is None:
        split = {**split, "dataset": data_id}
        log(f"Warning: {ckpt_path} does not record which data file it was made from: it cannot be checked that {data_path} is unchanged.")
    elif split["dataset"] != data_id:
        raise SystemExit(
            f"{data_path} has changed since {ckpt_path} was written (it was {short_id(split['dataset'])}, it is now {short_id(data_id)}): "
            "its groups, split and epoch order would no longer be the run's. Put the original file back, or use another --out (or --resume never) to start over."
        )
    runtime = {key: flags[key] for key in RUNTIME_KEYS if saved.get(key) != flags[key]}
    return {**saved, "best_metric": saved.get("best_metric", DEFAULT_BEST_METRIC)}, split, runtime


def check_best_metric(asked: Optional[str], settings: Dict, ckpt_path: str) -> None:
    """A resume keeps the best metric its run chose by (one recorded before the setting: Best-of-N); a
    --best-metric that asks for another stops it, as the other settings a resume must share."""
    if asked is not None and asked != settings["best_metric"]:
        raise SystemExit(f"--best-metric {asked}: {ckpt_path} was written by a run that chooses its best model by {settings['best_metric']}; leave the flag out to keep it, or use another --out (or --resume never) to start over.")


def read_resume_checkpoint(args, dist_: Dist, log: Log) -> Tuple[Optional[Dict], Optional[str], str]:
    """checkpoint.pt's content (None to start a new run), its path (None with --resume never) and the data
    file's identity, once every rank is seen to have the same of both."""
    check_data_files(args.data)
    ckpt_path = os.path.join(args.out, "checkpoint.pt") if args.resume == "auto" else (None if args.resume == "never" else args.resume)
    ckpt, ckpt_id = read_checkpoint(ckpt_path) if ckpt_path and os.path.exists(ckpt_path) else (None, None)
    data_id = data_identity(args.data)
    # Before any rank acts on what it sees: one that sees another checkpoint (or data) than rank 0 stops them all.
    check_ranks_agree(dist_, ckpt_path, (ckpt_id, ckpt["state"]["step"]) if ckpt is not None else None, data_id)
    if ckpt is None and args.resume not in ("auto", "never"):
        raise SystemExit(f"--resume {args.resume}: no such checkpoint")
    if int(os.environ.get("LOCAL_WORLD_SIZE", dist_.world)) < dist_.world:
        log("Several nodes: only rank 0 writes to --out (checkpoint.pt included); keep --out on storage every node sees, or a resume will be refused.")
    return ckpt, ckpt_path, data_id


# A new run's split kind when --split is not given: every held-out question is validated on.
DEFAULT_SPLIT_KIND = "all"


def holdout_sources_flag(value: Optional[str]) -> List[str]:
    """--holdout-sources a,b → ["a", "b"] (blank names dropped)."""
    return [s.strip() for s in (value or "").split(",") if s.strip()]


def _check_split_flags(args, split: Dict, whose: str) -> None:
    """A resume or --init keeps its recorded split kind and held-out sources; flags that ask for others stop the run."""
    holdout = holdout_sources_flag(args.holdout_sources)
    if args.split is not None and args.split != split["kind"]:
        raise SystemExit(f"--split {args.split}: {whose} records split kind {split['kind']!r}; leave --split out to keep it, or use another --out (or --resume never) to start over.")
    if args.holdout_sources is not None and holdout != split.get("holdoutSources", []):
        raise SystemExit(f"--holdout-sources {args.holdout_sources!r}: {whose} records held-out sources {split.get('holdoutSources', [])}; leave the flag out to keep them.")


def choose_split(args, ckpt: Optional[Dict], ckpt_path: Optional[str], init, settings: Dict, data_id: str, log: Log) -> Tuple[Dict, Dict, Dict]:
    """The split (and the settings recorded, and a resume's changed runtime flags): a resume's is the
    checkpoint's, an --init model's is the one it records for this file, else --seed, --train-fraction,
    --split (default all) and --holdout-sources'. `init` is load_model_file's (model, loaded) or None."""
    kind = args.split or DEFAULT_SPLIT_KIND
    holdout = holdout_sources_flag(args.holdout_sources)
    if ckpt is not None:
        resumed = resumed_settings(ckpt, ckpt_path, settings, data_id, paths_text(args.data), log)
        _check_split_flags(args, resumed[1], ckpt_path)
        check_best_metric(args.best_metric, resumed[0], ckpt_path)
        asked = settings.get("selector_fields", [])
        if getattr(args, "selector_field", None) and asked != resumed[0].get("selector_fields", []):
            raise SystemExit(f"--selector-field {', '.join(asked)}: {ckpt_path} was written by a run whose selector reads {resumed[0].get('selector_fields') or 'no field'}; leave the flag out to keep it, or use another --out (or --resume never) to start over.")
        return resumed
    if init is not None:
        split, notes = split_for_init(init[1].training, os.path.basename(args.init), data_name(args.data), data_id, args.seed, args.train_fraction, kind, holdout)
        for note in notes:
            log(note)
        return settings, split, {}
    return settings, split_record(args.seed, args.train_fraction, data_id, kind, holdout), {}


def read_run_inputs(args, dist_: Dist, log: Log) -> RunInputs:
    ckpt, ckpt_path, data_id = read_resume_checkpoint(args, dist_, log)
    init_cfg = None
    init = None
    if ckpt is not None:
        init_cfg = ModelConfig(**ckpt["cfg"])
    elif args.init:
        init = load_model_file_or_exit(args.init, "--init")
        init_cfg = init[1].cfg
        for w in init[1].warnings:
            log(f"--init {args.init}: {w}")
        log(f"Continuing from {args.init} (its config wins over the model flags): {init_cfg}")
    cfg = model_config(args, init_cfg)
    settings, split, runtime = choose_split(args, ckpt, ckpt_path, init, flag_settings(args, dist_.world, init_cfg is not None), data_id, log)

    data = load_training_data_or_exit(args.data, cfg.maxLen, args.tokenize_workers, quiet=not dist_.main)
    holdout = split.get("holdoutSources", [])
    missing = sorted(set(holdout) - set(s for s in data.sources if s is not None))
    if missing:
        raise SystemExit(f"--holdout-sources: {paths_text(args.data)} has no candidates from {', '.join(missing)} (its sources: {', '.join(sorted(set(s for s in data.sources if s is not None))) or 'none'}).")
    train_groups, val_groups, keep = holdout_split(data.labels, data.group_start, data.sources, split["seed"], split["trainFraction"], split["kind"], holdout)
    if keep is not None:
        # Training reads only the other sources' candidates, validation only the held-out ones' (same group indices).
        data = keep_candidates(data, keep)
    absent = data.missing_field(settings.get("selector_fields", []))
    if absent is not None:
        raise SystemExit(f"--selector-field {absent}: no line of {paths_text(args.data)} carries a numeric field {absent!r} (the selector reads fields of files with one candidate per line).")
    if not train_groups:
        raise SystemExit("No training groups: the dataset needs groups with both a correct and an incorrect candidate.")
    steps = step_count(len(train_groups), args.groups_per_step, dist_.world, args.epochs, args.warmup_ratio)
    return RunInputs(cfg, settings, split, data, train_groups, val_groups, steps, ckpt, ckpt_path, init[0] if init else None, runtime)
