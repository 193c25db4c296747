"""An independent reference for the app's "Why this energy?" (src/engine/score/explainEnergy.ts): the
deletion effect of pieces of a candidate's text, by this package's tokenizer and model in float64. For
each piece (start, end) — UTF-16 offsets into the text, as the app's data-start/data-end — the text
without those characters is tokenized as training reads it ([CLS] question [SEP] text, cut at maxLen) and
scored; its delta is that energy minus the candidate's. Reads a JSON request file
`{"weights": path, "config": {ModelConfig fields} or null, "items": [{"question", "text", "pieces": [[start, end], ...]}, ...]}`
and prints `{"energies": [...], "deltas": [[...], ...]}`. src/engine/score/explainEnergy.test.ts runs it.

    python3 scripts/saliency_reference.py REQUEST.json        (from python/, with the package importable)
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import torch  # noqa: E402

from eorm.model import TransEBM, load_arrays  # noqa: E402
from eorm.tokenize import encode_input  # noqa: E402
from eorm.weights import read_model  # noqa: E402


def without(text: str, start: int, end: int) -> str:
    """`text` less the UTF-16 code units start … end−1 (JavaScript's string offsets)."""
    units = text.encode("utf-16-le", "surrogatepass")
    return (units[: 2 * start] + units[2 * end :]).decode("utf-16-le", "surrogatepass")


def energy(model: TransEBM, question: str, text: str) -> float:
    cfg = model.cfg
    ids = encode_input(question, text, cfg.maxLen, cfg.clsId, cfg.sepId)
    with torch.no_grad():
        return float(model(torch.tensor([ids], dtype=torch.long), torch.tensor([len(ids)]))[0])


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as f:
        req = json.load(f)
    with open(req["weights"], "rb") as f:
        loaded = read_model(f.read(), req.get("config") or None)
    model = TransEBM(loaded.cfg)
    load_arrays(model, loaded.tensors)
    model = model.double().eval()
    out = {"energies": [], "deltas": []}
    for item in req["items"]:
        q, text = item["question"], item["text"]
        e = energy(model, q, text)
        out["energies"].append(e)
        out["deltas"].append([energy(model, q, without(text, s, t)) - e for s, t in item["pieces"]])
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
