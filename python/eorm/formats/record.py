"""One line's record with the app's validation rules and messages (src/engine/data/record.ts, types.ts): the
types a read fills (LineError, Candidate, Group, IngestReport, Dataset), the field readers the formats share,
and one candidate per line: `{"question", "gen_text" | "generated_full_text", "label": 0|1|true|false}`, optional
`question_id`, `answer`, `gold`, `source`. Bad lines are reported with line number, field, kind and reason.

Any nesting depth parses, as with V8's JSON.parse (eorm.jsonparse): a deeply nested ignored field does not
reject its line.
Known difference: for `invalid_json` the reason quotes Python's JSON error, not V8's (field and kind agree)."""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Union

from .. import jsonparse
from ..js import json_stringify, number_to_string, trim, utf16_len, utf16_slice

_LITERAL = re.compile(r"(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?\Z", re.ASCII)
LINE = "(line)"


@dataclass
class LineError:
    line: int
    field: str
    kind: str
    reason: str
    # The file, when several were read together (eorm.formats).
    file: Optional[str] = None

    def message(self) -> str:
        """`line 17, field "label": expected 0, 1, true or false, got "yes"` (the app's lineErrorMessage)."""
        where = LINE if self.field == LINE else f'field "{self.field}"'
        return f"{'' if self.file is None else self.file + ' '}line {self.line}, {where}: {self.reason}"


@dataclass
class Candidate:
    line: int
    gen_text: str
    # 1 = correct: the line's label, or, when it gives none, whether its answer is the gold answer.
    label: int
    answer: Optional[str]
    # The canonical final answer, or an earlier equal answer's key of its question (answer_classes.py): what votes count.
    answer_key: Optional[str]
    gold: Optional[str]
    source: Optional[str]
    # Key of the answer extracted from gen_text (answer_key is this when the line gives no `answer`).
    text_answer_key: Optional[str] = None
    # The line gave no label: `label` says whether its answer equals the gold answer (answers.matches_gold).
    label_from_gold: bool = False
    # Whether its answer equals the gold answer; None when the line has no gold with a final answer.
    gold_match: Optional[bool] = None
    # The file it came from (several files read together), and a chat completion's reasoning_content.
    file: Optional[str] = None
    reasoning: Optional[str] = None
    # One candidate per line: the line's numeric fields besides its label (another reward model's `score`…).
    scores: Optional[Dict[str, float]] = None


@dataclass
class Group:
    question_id: Optional[str]
    question: str
    candidates: List[Candidate] = field(default_factory=list)

    @property
    def labels(self) -> List[int]:
        return [c.label for c in self.candidates]


@dataclass
class IngestReport:
    bytes_read: int = 0
    lines_read: int = 0
    accepted: int = 0
    rejected: int = 0
    blank: int = 0
    invalid_utf8_lines: int = 0
    errors: List[LineError] = field(default_factory=list)


@dataclass
class Dataset:
    groups: List[Group]
    candidate_count: int
    report: IngestReport


class NoValidLinesError(ValueError):
    def __init__(self, report: IngestReport, why: Optional[str] = None) -> None:  # why: what lines read without error lack
        why = why or (f"all {len(report.errors)} non-blank lines were rejected" if report.errors else "the file has no non-blank line")
        super().__init__(f"No valid line in the file: {why} ({report.lines_read} lines read).")
        self.report = report


class _Reject(Exception):
    def __init__(self, field_name: str, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.field = field_name
        self.kind = kind
        self.reason = reason


def _shorten(s: str) -> str:
    return utf16_slice(s, 37) + "..." if utf16_len(s) > 40 else s


def describe_value(v) -> str:
    """A short rendering of an offending value (`"yes"`, `2`, `null`, `an object`), as the app writes it."""
    if isinstance(v, list):
        return "an array"
    if isinstance(v, dict):
        return "an object"
    if _is_number(v) and not math.isfinite(float(v)):
        return "a number too large"
    return _shorten(json_stringify(v))


class Num(float):
    """A JSON number: its double (as JSON.parse gives) and its text as written in the file."""

    text: str

    def __new__(cls, literal: str) -> "Num":
        n = super().__new__(cls, literal)
        n.text = literal
        return n


def exact_zero_or_one(literal: str) -> Optional[int]:
    """Which of 0 and 1 a JSON number literal denotes exactly ("1.0", "10e-1", "-0" included), or None."""
    m = _LITERAL.match(literal)
    if m is None:
        return None
    sign, int_part, frac, exp = m.group(1), m.group(2), m.group(3) or "", m.group(4) or "0"
    digits = int_part + frac
    stripped = digits.lstrip("0")
    if stripped == "":
        return 0
    significant = stripped.rstrip("0")
    power = int(exp) - len(frac) + (len(stripped) - len(significant))
    return 1 if sign == "" and significant == "1" and power == 0 else None


def _is_number(v) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _required_string(obj: dict, name: str) -> str:
    if name not in obj:
        raise _Reject(name, "missing_field", "missing")
    v = obj[name]
    if not isinstance(v, str):
        raise _Reject(name, "wrong_type", f"expected a string, got {describe_value(v)}")
    return v


def _optional_text(obj: dict, name: str, numbers: bool) -> Optional[str]:
    """Absent and null both mean "not given"; numbers (where allowed) are kept as written in the file."""
    v = obj.get(name)
    if v is None:
        return None
    if isinstance(v, str):
        return v
    if numbers and _is_number(v):
        return v.text if isinstance(v, Num) else number_to_string(float(v))
    raise _Reject(name, "wrong_type", f"expected a string{' or a number' if numbers else ''}, got {describe_value(v)}")


def _read_record(obj: dict, require_label: bool = True) -> dict:
    question = _required_string(obj, "question")
    if trim(question) == "":
        raise _Reject("question", "empty_question", "empty question")
    text_field = "gen_text" if "gen_text" in obj else "generated_full_text"
    if text_field not in obj:
        raise _Reject("gen_text", "missing_field", 'missing (expected "gen_text" or "generated_full_text")')
    gen_text = _required_string(obj, text_field)
    # Without a label (null is none, as elsewhere), a gold answer labels the line (ingest compares the answers); without both, nothing does.
    has_label = obj.get("label") is not None
    gold = None if has_label else _optional_text(obj, "gold", True)
    if require_label and not has_label and gold is None:
        raise _Reject("label", "missing_field", "missing")
    label = _read_label(obj["label"]) if has_label else None
    qid = _optional_text(obj, "question_id", True)
    return {
        "question": question,
        "gen_text": gen_text,
        "label": label,
        "question_id": None if qid is None or trim(qid) == "" else qid,
        "answer": _optional_text(obj, "answer", True),
        "gold": _optional_text(obj, "gold", True) if has_label else gold,
        "source": _optional_text(obj, "source", False),
    }


def _read_label(v) -> int:
    """0, 1, true or false; a number must be exactly 0 or 1 as written (1e-400 is not 0, 0.99999999999999999 is not 1)."""
    if v is True:
        return 1
    if v is False:
        return 0
    expected = "expected 0, 1, true or false, got"
    if not _is_number(v):
        raise _Reject("label", "bad_label", f"{expected} {describe_value(v)}")
    text = v.text if isinstance(v, Num) else number_to_string(float(v))
    exact = exact_zero_or_one(text)
    if exact is not None:
        return exact
    f = float(v)
    note = " (a number too large)" if not math.isfinite(f) else f" (not exactly {number_to_string(f)}: it only rounds to {number_to_string(f)})" if f in (0, 1) else ""
    raise _Reject("label", "bad_label", f"{expected} {_shorten(text)}{note}")


def _no_constants(name: str):
    raise ValueError(f"{name} is not valid JSON")


def parse_object(text: str, line: int) -> Union[dict, LineError]:
    """A line (or a JSON array's element) as a JSON object with numbers as written, or why not."""
    try:
        # Numbers are doubles as in JS (1e400 → inf), each keeping its text; NaN/Infinity literals are refused.
        value = jsonparse.loads(text, parse_constant=_no_constants, parse_int=Num, parse_float=Num)
    except ValueError as e:
        msg = str(e)
        short = msg[:157] + "..." if len(msg) > 160 else msg
        bom = text.find("\ufeff")
        # A BOM inside a line: two files joined without a newline between them (`cat a.jsonl b.jsonl`).
        hint = "" if bom < 0 else f" (a byte-order mark U+FEFF at character {utf16_len(text[:bom]) + 1}: were two files joined without a newline between them?)"
        return LineError(line, LINE, "invalid_json", f"invalid JSON: {short}{hint}")
    if not isinstance(value, dict):
        return LineError(line, LINE, "not_object", f"expected a JSON object, got {describe_value(value)}")
    return value


def parse_candidate_line(text: str, line: int) -> Union[dict, LineError]:
    """One line → a record dict, or the LineError saying why it is rejected."""
    value = parse_object(text, line)
    if isinstance(value, LineError):
        return value
    try:
        return _read_record(value)
    except _Reject as r:
        return LineError(line, r.field, r.kind, r.reason)
