"""What `eorm.weights.read_model` says of every `*.safetensors` file in a folder, as one JSON array on stdout:
`{"file", "ok", "cfg", "digest"}` for a file it reads (digest: sha256 of the parameters' float32 bytes in
state_dict order), `{"file", "ok": false, "error"}` for a SafetensorsError, `{"file", "ok": false, "crash"}`
for any other exception. src/engine/io/modelFile.verdicts.test.ts compares these with the app's verdicts.

    python3 scripts/model_verdicts.py DIR        (from python/, with the package importable)
"""
import hashlib
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from eorm.config import param_shapes  # noqa: E402
from eorm.weights import SafetensorsError, read_model  # noqa: E402


def verdict(path: str) -> dict:
    name = os.path.basename(path)
    with open(path, "rb") as f:
        buf = f.read()
    try:
        m = read_model(buf)
    except SafetensorsError as e:
        return {"file": name, "ok": False, "error": str(e)}
    except Exception as e:  # a crash is a finding: the app would have said why in a SafetensorsError
        return {"file": name, "ok": False, "crash": f"{type(e).__name__}: {e}"}
    h = hashlib.sha256()
    for n, _ in param_shapes(m.cfg):
        h.update(m.tensors[n].numpy().astype("<f4").tobytes())
    return {"file": name, "ok": True, "cfg": m.cfg.to_dict(), "digest": h.hexdigest()}


def main() -> None:
    folder = sys.argv[1]
    names = sorted(n for n in os.listdir(folder) if n.endswith(".safetensors"))
    json.dump([verdict(os.path.join(folder, n)) for n in names], sys.stdout, ensure_ascii=True)


if __name__ == "__main__":
    main()
