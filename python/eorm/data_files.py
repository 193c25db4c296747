"""The --data files of a command line, read together as the app reads files dropped together
(src/worker/data/dataLoader.ts): their name, their identity, what a run records of them, and the one-line
errors that end a command when they cannot be read."""
from __future__ import annotations

import hashlib
import os
from typing import List, Sequence, Union

from .formats import FormatRead, read_files
from .formats.sniff import NotJsonTextError
from .formats.record import NoValidLinesError

Paths = Union[str, Sequence[str]]


def file_identity(path: str, chunk: int = 1 << 20) -> str:
    """The dataset identity both sides record: SHA-256 of the file's raw bytes, "sha256:<64 lowercase hex>"."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(chunk), b""):
            h.update(block)
    return "sha256:" + h.hexdigest()


def as_paths(data: Paths) -> List[str]:
    """One path or several, as a list."""
    return [data] if isinstance(data, str) else list(data)


def data_name(data: Paths) -> str:
    """The name the app gives the files read together: their file names joined by " + "."""
    return " + ".join(os.path.basename(p) for p in as_paths(data))


def paths_text(data: Paths) -> str:
    """The files as the command line gives them, for messages."""
    return " + ".join(as_paths(data))


def data_identity(data: Paths) -> str:
    """The identity runs and model files record: one file's is the SHA-256 of its bytes; several files',
    the SHA-256 of "<name>\\t<hex>\\n" for each in the order given (dataLoader.ts's identityOf)."""
    paths = as_paths(data)
    if len(paths) == 1:
        return file_identity(paths[0])
    lines = "".join(f"{os.path.basename(p)}\t{file_identity(p)[len('sha256:'):]}\n" for p in paths)
    return "sha256:" + hashlib.sha256(lines.encode("utf-8")).hexdigest()


def data_setting(data: Paths):
    """What a run's settings record as its data: the absolute path, a list of them for several files."""
    paths = [os.path.abspath(p) for p in as_paths(data)]
    return paths[0] if len(paths) == 1 else paths


def check_data_files(data: Paths) -> None:
    """Ends the command with one line when a --data file cannot be read (before any work starts)."""
    for p in as_paths(data):
        if not os.path.exists(p):
            raise SystemExit(f"--data {p}: no such file.")
        if not os.path.isfile(p):
            raise SystemExit(f"--data {p}: not a file (give the data files themselves, not a folder).")
        if not os.access(p, os.R_OK):
            raise SystemExit(f"--data {p}: the file cannot be read (permission denied).")


def read_data_or_exit(data: Paths) -> FormatRead:
    """The files read together (eorm.formats); a read that gives nothing ends the command with what to do."""
    check_data_files(data)
    try:
        return read_files(as_paths(data))
    except NotJsonTextError as e:
        raise SystemExit(str(e)) from None
    except NoValidLinesError as e:
        first = f" First problem: {e.report.errors[0].message()}." if e.report.errors else ""
        raise SystemExit(f"{paths_text(data)}: {e}{first}") from None
