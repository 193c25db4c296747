"""The processes of a run (torchrun's environment: WORLD_SIZE, RANK, LOCAL_RANK), their device and
collectives, and the one check a multi-node run needs before it resumes: that every rank sees the checkpoint
rank 0 sees (only rank 0 writes to --out)."""
from __future__ import annotations

import datetime
import os
from typing import List, Optional, Tuple

import torch
import torch.distributed as dist


class Dist:
    def __init__(self, device_arg: str) -> None:
        self.world = int(os.environ.get("WORLD_SIZE", "1"))
        self.rank = int(os.environ.get("RANK", "0"))
        self.local_rank = int(os.environ.get("LOCAL_RANK", "0"))
        want_cuda = device_arg == "cuda" or (device_arg == "auto" and torch.cuda.is_available())
        if device_arg.startswith("cuda:"):
            want_cuda = True
        if want_cuda:
            self.device = torch.device(device_arg if device_arg.startswith("cuda:") else f"cuda:{self.local_rank}")
            torch.cuda.set_device(self.device)
        else:
            self.device = torch.device("cpu")
        self.enabled = self.world > 1
        if self.enabled:
            dist.init_process_group("nccl" if self.device.type == "cuda" else "gloo", timeout=datetime.timedelta(minutes=60))

    @property
    def main(self) -> bool:
        return self.rank == 0

    def barrier(self) -> None:
        if self.enabled:
            dist.barrier()

    def all_sum(self, t: torch.Tensor) -> torch.Tensor:
        if self.enabled:
            dist.all_reduce(t, op=dist.ReduceOp.SUM)
        return t

    def close(self) -> None:
        if self.enabled:
            dist.destroy_process_group()

    def all_gather(self, values: List[int]) -> List[List[int]]:
        """Every rank's `values` (int64), in rank order."""
        t = torch.tensor(values, dtype=torch.int64, device=self.device)
        if not self.enabled:
            return [t.tolist()]
        out = [torch.zeros_like(t) for _ in range(self.world)]
        dist.all_gather(out, t)
        return [o.tolist() for o in out]


def _id64(text: Optional[str]) -> int:
    """An identity ("sha256:<hex>") as a signed 64-bit integer (its first 16 hex digits); 0 for none."""
    if not text:
        return 0
    v = int(text.split(":", 1)[1][:16], 16)
    return v - (1 << 64) if v >= 1 << 63 else v


def check_ranks_agree(dist_: Dist, ckpt_path: Optional[str], ckpt: Optional[Tuple[str, int]], data: str) -> None:
    """Refuses to start unless every rank sees the checkpoint rank 0 sees (`ckpt`: its identity and step, or
    None) and the same data file (`data`: its identity). Only rank 0 writes checkpoint.pt: with an --out that
    is not shared across nodes, the other nodes would find none (or an old one) and start over while rank 0
    resumes. Every rank raises SystemExit with the same message."""
    if not dist_.enabled:
        return
    seen = dist_.all_gather([_id64(ckpt[0]) if ckpt else 0, ckpt[1] if ckpt else -1, _id64(data)])
    ref = seen[0]
    problems = []
    for r, (cid, step, did) in enumerate(seen[1:], start=1):
        if cid != ref[0]:
            if ref[0] == 0:
                problems.append(f"rank {r} sees a checkpoint there (step {step}) and would resume from it")
            elif cid == 0:
                problems.append(f"rank {r} sees no checkpoint there")
            else:
                problems.append(f"rank {r} sees another checkpoint there (step {step})")
        if did != ref[2]:
            problems.append(f"rank {r}'s --data has other bytes than rank 0's")
    if not problems:
        return
    # Paths are each rank's own: name rank 0's only where it is rank 0's.
    at = (os.path.dirname(ckpt_path) or ".") if dist_.main and ckpt_path else "its --out"
    if ref[0]:
        where = f"rank 0 resumes from the checkpoint in {at} (step {ref[1]})"
    else:
        where = f"rank 0 sees no checkpoint in {at} and starts the run" if ckpt_path else "rank 0 starts the run (--resume never)"
    raise SystemExit(
        f"The ranks of this run do not see the same files: {where}, but {'; '.join(problems)}. "
        "Only rank 0 writes checkpoint.pt, so --out must be on storage that every node sees (a shared file system); "
        "otherwise the other nodes would start over while rank 0 resumes. Put --out on shared storage, or copy rank 0's "
        "checkpoint.pt to the same path on every node, and give every node the same --data file; then run again."
    )
