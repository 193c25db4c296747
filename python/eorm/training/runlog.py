"""What a training run shows and writes as it goes: the progress bar, metrics.jsonl (and TensorBoard), and
files replaced whole (never half-written when a run is killed)."""
from __future__ import annotations

import json
import math
import os
import time
from contextlib import contextmanager
from typing import Dict, Optional


class Progress:
    """tqdm when installed (and wanted), else a plain line every few seconds."""

    def __init__(self, total: int, initial: int, enabled: bool) -> None:
        self.bar = None
        self.enabled = enabled
        self.last = 0.0
        self.total = total
        if enabled:
            try:
                from tqdm import tqdm

                self.bar = tqdm(total=total, initial=initial, unit="step", dynamic_ncols=True)
            except ImportError:
                pass

    def update(self, step: int, info: Dict) -> None:
        if not self.enabled:
            return
        if self.bar is not None:
            self.bar.update(1)
            self.bar.set_postfix(info, refresh=False)
        elif time.time() - self.last > 5 or step == self.total:
            self.last = time.time()
            print(f"step {step}/{self.total} " + " ".join(f"{k} {v}" for k, v in info.items()), flush=True)

    def write(self, text: str) -> None:
        if self.bar is not None:
            self.bar.write(text)
        elif self.enabled:
            print(text, flush=True)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


class MetricsLog:
    """metrics.jsonl (and TensorBoard when installed); rank 0 only."""

    def __init__(self, path: str, enabled: bool, keep_until_step: Optional[int]) -> None:
        self.enabled = enabled
        self.tb = None
        if not enabled:
            return
        if keep_until_step is not None and os.path.exists(path):
            # Resuming: drop what was logged after the checkpoint, so the file reads as one run.
            kept = []
            with open(path, encoding="utf-8") as f:
                for line in f:
                    try:
                        rec = json.loads(line)
                    except ValueError:
                        continue
                    kind = rec.get("type")
                    if kind in ("step", "skip") and rec.get("step", 0) >= keep_until_step:
                        continue
                    if kind == "eval" and rec.get("step", 0) > keep_until_step:
                        continue
                    if kind == "end":
                        continue
                    kept.append(line if line.endswith("\n") else line + "\n")
            with open(path, "w", encoding="utf-8") as f:
                f.writelines(kept)
            self.file = open(path, "a", encoding="utf-8")
        else:
            self.file = open(path, "w", encoding="utf-8")
        try:
            from torch.utils.tensorboard import SummaryWriter

            self.tb = SummaryWriter(os.path.join(os.path.dirname(path), "tensorboard"))
        except Exception:
            self.tb = None

    def write(self, rec: Dict) -> None:
        if not self.enabled:
            return
        self.file.write(json.dumps(finite(rec), separators=(",", ":")) + "\n")
        self.file.flush()
        if self.tb is None:
            return
        if rec["type"] == "step":
            for k in ("loss", "smoothed", "lr", "gradNorm"):
                self.tb.add_scalar(f"train/{k}", rec[k], rec["step"])
        elif rec["type"] == "eval":
            s = rec["summary"]
            for k in ("bestOfN", "pairwise", "btLoss", "meanMargin"):
                if isinstance(s.get(k), float) and math.isfinite(s[k]):
                    self.tb.add_scalar(f"val/{k}", s[k], rec["step"])

    def close(self) -> None:
        if self.enabled:
            self.file.close()
            if self.tb is not None:
                self.tb.close()


def finite(v):
    """JSON has no NaN/Infinity: they become null (as JSON.stringify writes them)."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {k: finite(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [finite(x) for x in v]
    return v


@contextmanager
def replaced_whole(path: str):
    """A binary file to write that takes `path`'s place only once written whole; a write that fails (disk
    full, interrupted) leaves `path` as it was and no temporary file beside it."""
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise


def atomic_write(path: str, data: bytes) -> None:
    with replaced_whole(path) as f:
        f.write(data)
