"""Every input format, declared once (table.ts is the twin): its name, how the data panel describes it, and the
kinds of JSON object its lines hold, each with how it is detected and which reader takes it. detect.py,
describe.py and read_files read this table."""
from __future__ import annotations

from typing import Callable, Dict, List, NamedTuple, Optional, Tuple

from .candidates import candidates_reader
from .chat_batch import ChatRequests, chat_output_reader, is_chat_output, is_chat_request
from .context import ReadContext
from .grouped import grouped_reader, is_grouped
from .lm_eval import is_lm_eval, lm_eval_reader


class ObjectKind(NamedTuple):
    kind: str
    # Detection tries the kinds from the lowest precedence up; an object no kind claims is read as candidates.
    precedence: int
    detect: Callable[[dict], bool]
    reader: Callable[[ReadContext, ChatRequests], Callable]


class Format(NamedTuple):
    name: str
    # The panel's sentence: what the file is, and the words _count pluralises, "1 question × 2 samples".
    describe: Tuple[str, str, str]
    # The kinds of object its lines hold; none for a layout (a JSON array) or a join of files.
    kinds: Tuple[ObjectKind, ...] = ()
    # Its name holds in a JSON array too (else an array is "json-array").
    named_in_array: bool = False


def _has_gen_text(obj: dict) -> bool:
    return "gen_text" in obj or "generated_full_text" in obj


FORMATS: List[Format] = [
    Format("candidates", ("one candidate per line", "question", "candidate"),
           (ObjectKind("candidates", 3, _has_gen_text, lambda ctx, _requests: candidates_reader(ctx)),)),
    Format("grouped", ("one question per line", "question", "sample"),
           (ObjectKind("grouped", 4, is_grouped, lambda ctx, _requests: grouped_reader(ctx)),)),
    Format("json-array", ("JSON array of questions", "question", "sample")),
    Format("lm-eval", ("lm-evaluation-harness samples", "doc", "repeat"),
           (ObjectKind("lm-eval", 2, is_lm_eval, lambda ctx, _requests: lm_eval_reader(ctx)),), named_in_array=True),
    Format("chat-batch", ("chat completion batch", "request", "choice"),
           (ObjectKind("chat-output", 0, is_chat_output, chat_output_reader),
            ObjectKind("chat-request", 1, is_chat_request, lambda _ctx, requests: requests.reader()))),
    Format("multi-file", ("files joined", "question", "candidate")),
]

FORMAT_BY_NAME: Dict[str, Format] = {f.name: f for f in FORMATS}
# Every kind with its format, in the order detection tries them.
OBJECT_KINDS: List[Tuple[ObjectKind, Format]] = sorted(((k, f) for f in FORMATS for k in f.kinds), key=lambda kf: kf[0].precedence)


def kind_of(name: Optional[str]) -> Optional[Tuple[ObjectKind, Format]]:
    return next((kf for kf in OBJECT_KINDS if kf[0].kind == name), None)
