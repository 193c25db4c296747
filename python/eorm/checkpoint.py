"""checkpoint.pt: everything a run needs to continue (model, optimizer, position, settings, split), written
whole or not at all; read back with its identity (the SHA-256 of its bytes), so the ranks of a multi-node
run can check that they all resume from the same file."""
from __future__ import annotations

import os
from typing import Dict, Tuple

import torch

from .dataset import file_identity


def read_checkpoint(path: str) -> Tuple[Dict, str]:
    return torch.load(path, map_location="cpu"), file_identity(path)


def write_checkpoint(path: str, blob: Dict) -> None:
    tmp = f"{path}.tmp{os.getpid()}"
    torch.save(blob, tmp)
    os.replace(tmp, path)
