"""`torchrun`, made to work where it does not: `python3 -m eorm.launch` takes torchrun's arguments unchanged.

Debian bookworm's torch 1.13 with Python 3.11 crashes in every torchrun before starting a worker
(`AttributeError: 'NoneType' object has no attribute 'get'`): its `Std.from_str` looks the value up by
iterating the IntFlag, and Python 3.11 no longer yields the zero member (`Std.NONE`) there, so the default
`--redirects 0` / `--tee 0` become None. This shim fixes that lookup, then runs torch.distributed.run
(elsewhere it changes nothing). Plain `torchrun -r 1 -t 1 …` also works around it.

    python3 -m eorm.launch --standalone --nproc_per_node 2 -m eorm.train --data FILE.jsonl --out DIR
"""
from torch.distributed.elastic.multiprocessing import api as _api


def _patch() -> bool:
    original = _api.Std.from_str.__func__

    def from_str(cls, vm):
        value = original(cls, vm)
        if value is None:
            return cls(int(vm))
        if isinstance(value, dict) and any(v is None for v in value.values()):
            pairs = (m.split(":") for m in vm.split(","))
            return {int(i): cls(int(v)) for i, v in pairs}
        return value

    if original(_api.Std, "0") is None:
        _api.Std.from_str = classmethod(from_str)
        return True
    return False


PATCHED = _patch()


def main() -> None:
    from torch.distributed.run import main as torchrun_main

    torchrun_main()


if __name__ == "__main__":
    main()
