"""The TransEBM configuration, field for field as the app's ModelConfig (src/engine/model/config.ts), and
the training presets (src/engine/train/settings.ts)."""
from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Dict, List, Tuple

GPT2_EOT = 50256
GPT2_VOCAB = 50257

# The app's key order (DEFAULT_CONFIG): `eorm_config` JSON is written in this order.
CONFIG_KEYS = ("vocabSize", "dModel", "nHeads", "nLayers", "ffnDim", "dropout", "maxLen", "clsId", "sepId", "padId", "positional")


@dataclass(frozen=True)
class ModelConfig:
    vocabSize: int = GPT2_VOCAB
    dModel: int = 768
    nHeads: int = 4
    nLayers: int = 2
    ffnDim: int = 4 * 768
    dropout: float = 0.2
    maxLen: int = 2048
    clsId: int = GPT2_EOT
    sepId: int = GPT2_EOT
    padId: int = GPT2_EOT
    positional: str = "none"

    def to_dict(self) -> Dict:
        return asdict(self)


def validate_config(cfg: ModelConfig) -> List[str]:
    out: List[str] = []
    for k in ("vocabSize", "dModel", "nHeads", "nLayers", "ffnDim", "maxLen"):
        v = getattr(cfg, k)
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
            out.append(f"{k} must be a positive integer (got {v})")
    if isinstance(cfg.dModel, int) and isinstance(cfg.nHeads, int) and cfg.nHeads > 0 and cfg.dModel % cfg.nHeads != 0:
        out.append(f"dModel ({cfg.dModel}) must be divisible by nHeads ({cfg.nHeads})")
    if not (isinstance(cfg.dropout, (int, float)) and 0 <= cfg.dropout < 1):
        out.append(f"dropout must be in [0, 1) (got {cfg.dropout})")
    if isinstance(cfg.maxLen, int) and cfg.maxLen < 2:
        out.append("maxLen must be at least 2 (CLS and one token)")
    for k in ("clsId", "sepId", "padId"):
        v = getattr(cfg, k)
        if not isinstance(v, int) or v < 0 or (isinstance(cfg.vocabSize, int) and v >= cfg.vocabSize):
            out.append(f"{k} must be a token id below vocabSize")
    if cfg.positional not in ("none", "learned"):
        out.append("positional must be 'none' or 'learned'")
    return out


def make_config(**partial) -> ModelConfig:
    """Fills defaults (ffnDim follows dModel unless given) and rejects configs the model cannot run."""
    unknown = set(partial) - {f.name for f in fields(ModelConfig)}
    if unknown:
        raise ValueError(f"unknown config fields: {', '.join(sorted(unknown))}")
    d = partial.get("dModel", ModelConfig.dModel)
    cfg = replace(ModelConfig(), **{"ffnDim": 4 * d, **partial})
    problems = validate_config(cfg)
    if problems:
        raise ValueError(f"Invalid model config: {'; '.join(problems)}")
    return cfg


def param_shapes(cfg: ModelConfig) -> List[Tuple[str, Tuple[int, ...]]]:
    """Parameter names and shapes in PyTorch `state_dict` order (Linear weights are [out, in])."""
    d = cfg.dModel
    out: List[Tuple[str, Tuple[int, ...]]] = [("emb.weight", (cfg.vocabSize, d))]
    if cfg.positional == "learned":
        out.append(("pos.weight", (cfg.maxLen, d)))
    for i in range(cfg.nLayers):
        p = f"enc.layers.{i}."
        out += [
            (f"{p}self_attn.in_proj_weight", (3 * d, d)),
            (f"{p}self_attn.in_proj_bias", (3 * d,)),
            (f"{p}self_attn.out_proj.weight", (d, d)),
            (f"{p}self_attn.out_proj.bias", (d,)),
            (f"{p}linear1.weight", (cfg.ffnDim, d)),
            (f"{p}linear1.bias", (cfg.ffnDim,)),
            (f"{p}linear2.weight", (d, cfg.ffnDim)),
            (f"{p}linear2.bias", (d,)),
            (f"{p}norm1.weight", (d,)),
            (f"{p}norm1.bias", (d,)),
            (f"{p}norm2.weight", (d,)),
            (f"{p}norm2.bias", (d,)),
        ]
    out += [("head.0.weight", (d,)), ("head.0.bias", (d,)), ("head.1.weight", (d, d)), ("head.1.bias", (d,)), ("head.3.weight", (1, d)), ("head.3.bias", (1,))]
    return out


def _model(d: int, max_len: int) -> Dict:
    return {"dModel": d, "nHeads": 4, "nLayers": 2, "ffnDim": 4 * d, "dropout": 0.2, "maxLen": max_len, "positional": "none"}


# Model sizes: tiny for quick looks (and tests), small for a laptop GPU, paper as in the EORM paper.
PRESETS: Dict[str, Dict] = {"tiny": _model(64, 256), "small": _model(256, 512), "paper": _model(768, 2048)}

# Each preset's learning rate (the app's PRESET_LR): 1e-3 measured best on tiny (docs/recipe.md); small and
# paper keep the reference's 1e-4, set for d 768.
PRESET_LR: Dict[str, float] = {"tiny": 1e-3, "small": 1e-4, "paper": 1e-4}

# The default recipe (the app's DEFAULT_TRAIN_SETTINGS): AdamW at 1e-3 (wd 0.01), clip 1.0, warmup 10%.
DEFAULT_TRAIN = {
    "epochs": 3,
    "lr": PRESET_LR["tiny"],
    "warmupRatio": 0.1,
    "weightDecay": 0.01,
    "maxGradNorm": 1.0,
    "seed": 42,
    "groupsPerStep": 1,
}


def config_from_reference(ref: Dict, **extra) -> ModelConfig:
    """The fixture / PyTorch-reference snake_case config → ours (the app's configFromReference)."""

    def num(k, default=None):
        v = ref.get(k)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return v
        if default is not None:
            return default
        raise ValueError(f'reference config lacks numeric field "{k}"')

    d = num("d_model")
    return make_config(
        **{
            "vocabSize": num("vocab_size"),
            "dModel": d,
            "nHeads": num("n_heads"),
            "nLayers": num("n_layers"),
            "ffnDim": num("ffn", 4 * d),
            "dropout": 0.0,
            "clsId": num("cls_id", GPT2_EOT),
            "sepId": num("sep_id", num("cls_id", GPT2_EOT)),
            "padId": num("pad_id", GPT2_EOT),
            **extra,
        }
    )
