"""The reference for the app's per-token saliency (src/engine/model/saliency.ts), by torch autograd in float64:
energy E of each candidate (eval mode) and, per token, Σ_d x0[t, d] · ∂E/∂x0[t, d], where x0 = emb(ids)·√d
(+ pos(t) with positional='learned') is the encoder input. Reads a JSON request file
`{"weights": path, "config": {ModelConfig fields} or null, "candidates": [[ids, CLS first], ...]}` and prints
`{"energies": [...], "scores": [[...], ...]}`. src/engine/model/saliency.test.ts runs it.

    python3 scripts/saliency_reference.py REQUEST.json        (from python/, with the package importable)
"""
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch  # noqa: E402

from eorm.model import TransEBM, load_arrays  # noqa: E402
from eorm.weights import read_model  # noqa: E402


def saliency(model: TransEBM, ids: list) -> tuple:
    """E and the per-token gradient × input of one candidate. The embedding's output e is swapped for a leaf
    that autograd differentiates: x0 = e·√d (+ pos), so ∂E/∂x0 = (∂E/∂e)/√d."""
    leaf = {}

    def swap(_module, _inputs, out):
        leaf["e"] = out.detach().requires_grad_(True)
        return leaf["e"]

    handle = model.emb.register_forward_hook(swap)
    try:
        x = torch.tensor([ids], dtype=torch.long)
        energy = model(x, torch.tensor([len(ids)]))[0]
        (grad_e,) = torch.autograd.grad(energy, leaf["e"])
    finally:
        handle.remove()
    scale = math.sqrt(model.cfg.dModel)
    x0 = leaf["e"].detach() * scale
    if model.cfg.positional == "learned":
        x0 = x0 + model.pos.weight.detach()[: len(ids)]
    scores = (x0 * (grad_e / scale)).sum(-1)[0]
    return float(energy), [float(v) for v in scores]


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        req = json.load(f)
    with open(req["weights"], "rb") as f:
        loaded = read_model(f.read(), req.get("config") or None)
    model = TransEBM(loaded.cfg)
    load_arrays(model, loaded.tensors)
    model = model.double().eval()
    out = {"energies": [], "scores": []}
    for ids in req["candidates"]:
        e, s = saliency(model, ids)
        out["energies"].append(e)
        out["scores"].append(s)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
