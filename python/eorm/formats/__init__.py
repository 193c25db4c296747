"""One or several sample files → grouped candidates, each file's format detected from its content (the app's
src/engine/data/formats/readFiles.ts is the twin; python/tests/golden/formats pins both):
one candidate per line, one question per line with its samples, the same as a JSON array,
lm-evaluation-harness logged samples, OpenAI-style chat batches (output + request file), several files joined
(same question id, else same text, is one group; a candidate's source is its generator/model field, else its
file's name). A read without any label or gold answer is a picks set (labels_from "none", labels None)."""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import List, Optional, Sequence, Tuple, Union

from ..js import has_non_ws
from .lines import DEFAULT_MAX_LINE_BYTES, iter_lines
from .record import LINE, Group, IngestReport, LineError, NoValidLinesError, _Reject, parse_object
from .chat_batch import ChatRequests
from .collector import Collector
from .context import ReadContext
from .describe import describe_mapping
from .detect import file_format, joined_format, object_kind
from .json_array import ArraySplitter
from .sniff import NotJsonTextError, not_json_lines, not_json_text
from .table import kind_of


@dataclass
class FormatRead:
    groups: List[Group]
    candidate_count: int
    report: IngestReport
    format: str
    files: List[str]
    labels_from: str
    mapping: dict


def _reader(kind: str, ctx: ReadContext, requests: ChatRequests):
    """The reader the table (table.py) names for `kind`."""
    return kind_of(kind)[0].reader(ctx, requests)


_PEEK_LIMIT = 1 << 20


def _layout_and_kind(data: bytes) -> Tuple[str, Optional[str], Optional[str]]:
    """(layout, the first object's kind, the first non-blank line when it ends within the first MiB), as peek.ts sees them."""
    text = data[:_PEEK_LIMIT].decode("utf-8", "replace").lstrip("\ufeff")
    stripped = text.lstrip(" \t\r\n")
    if stripped.startswith("["):
        return "array", None, None
    start = 0
    for number, line, nbytes, _ in iter_lines(data):
        if line is None:
            return "jsonl", None, None
        if has_non_ws(line):
            parsed = parse_object(line, number)
            first = line if start + nbytes < _PEEK_LIMIT else None
            return "jsonl", None if isinstance(parsed, LineError) else object_kind(parsed), first
        start += nbytes + 1
    return "jsonl", None, None


def _load(f) -> Tuple[str, bytes]:
    if isinstance(f, tuple):
        return f[0], bytes(f[1])
    with open(f, "rb") as fh:
        return os.path.basename(f), fh.read()


def _no_candidate_reason(report: IngestReport, kinds: List[Optional[str]]) -> Optional[str]:
    """Why lines read without error gave no candidate (None when none was: the usual reason then holds)."""
    if report.accepted == 0:
        return None
    if "chat-request" in kinds and "chat-output" not in kinds:
        lines = " is a chat batch request" if report.accepted == 1 else "s are chat batch requests"
        return f"its {report.accepted} non-blank line{lines}: questions without answers; add the batch's output file (drop both files together)"
    return f"no line gives an answer to rank ({report.accepted} read without one, {report.rejected} rejected)"


def _read_array(data: bytes, item, collector: Collector, max_element_bytes: int) -> None:
    """A JSON array's elements to `item`; its counts are of its elements: each is one "line" read, accepted or rejected."""
    report = collector.report

    def element(text: str, line: int, bad: bool) -> None:
        report.lines_read += 1
        if bad:
            report.invalid_utf8_lines += 1
        item(text, line)

    def error(e: LineError) -> None:
        report.lines_read += 1
        collector.reject(e)

    ArraySplitter(element, error, max_element_bytes).split(data)


def _read_lines(data: bytes, item, collector: Collector, max_line_bytes: int) -> None:
    """A JSON Lines file's non-blank lines to `item`."""
    report = collector.report
    base = report.lines_read
    for number, text, nbytes, bad in iter_lines(data, max_line_bytes):
        report.lines_read = base + number
        if text is None:
            collector.reject(LineError(number, LINE, "line_too_long", f"line too long: {nbytes} bytes (limit {max_line_bytes})"))
            continue
        if bad:
            report.invalid_utf8_lines += 1
        if not has_non_ws(text):
            report.blank += 1
        else:
            item(text, number)


def _lookalike(files, multi: bool) -> Optional[str]:
    """What the files look like instead of JSON Lines (CSV, pretty-printed JSON), each named when several were read."""
    said = []
    for name, _, layout, _, first_line in files:
        what = None if layout == "array" else not_json_lines(first_line)
        if what is not None:
            said.append(f"{name}: {what}" if multi else what)
    return "; ".join(said) if said else None


def read_files(files: Sequence[Union[str, Tuple[str, bytes]]], max_line_bytes: int = DEFAULT_MAX_LINE_BYTES) -> FormatRead:
    """Reads paths (or (name, bytes) pairs) as one dataset. Raises NoValidLinesError when nothing valid is in them."""
    if not files:
        raise ValueError("No file given.")
    loaded = [_load(f) for f in files]
    for name, data in loaded:
        problem = not_json_text(data[:4])
        if problem is not None:
            raise NotJsonTextError(name, problem)
    opened = [(name, data) + _layout_and_kind(data) for name, data in loaded]
    # Questions come from the request files: read them before any output.
    order = [o for o in opened if o[3] == "chat-request"] + [o for o in opened if o[3] != "chat-request"]
    multi = len(files) > 1
    collector = Collector()
    ctx = ReadContext()
    requests = ChatRequests()
    report = collector.report
    kinds: List[Optional[str]] = []
    for name, data, layout, first_kind, _ in order:
        collector.set_file(name if multi else None, name if multi else None)
        state = {"kind": first_kind, "reader": None}

        def item(text: str, line: int) -> None:
            parsed = parse_object(text, line)
            if isinstance(parsed, LineError):
                return collector.reject(parsed)
            if state["kind"] is None:
                state["kind"] = object_kind(parsed)
            if state["reader"] is None:
                state["reader"] = _reader(state["kind"], ctx, requests)
            try:
                record = state["reader"](parsed, line)
            except _Reject as r:
                return collector.reject(LineError(line, r.field, r.kind, r.reason))
            if record is None:
                report.accepted += 1
            else:
                collector.line(record)

        report.bytes_read += len(data)
        if layout == "array":
            _read_array(data, item, collector, max_line_bytes)
        else:
            _read_lines(data, item, collector, max_line_bytes)
        kinds.append(state["kind"])
    ctx.unanswered_requests = requests.unanswered()
    collector.finish()
    if collector.candidate_count == 0:
        raise NoValidLinesError(report, _no_candidate_reason(report, kinds) or _lookalike(order, multi))
    fmt = joined_format(kinds) if multi else file_format(order[0][2], kinds[0])
    labels_from = "none" if not collector.labelled else "given" if collector.given_labels else "gold"
    mapping = describe_mapping(fmt, len(files), [len(g.candidates) for g in collector.groups], ctx, labels_from)
    return FormatRead(collector.groups, collector.candidate_count, report, fmt, [n for n, _ in loaded], labels_from, mapping)
