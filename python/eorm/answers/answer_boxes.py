"""The boxed answer of a text, as the app's src/engine/data/answers/answerBoxes.ts: the last balanced `\\boxed{…}` /
`\\fbox{…}`, read together with the boxes just before it when only connecting words stand between them (one
list answer, as a grader reads several boxes of one final line). One forward pass with a stack of open braces."""
from __future__ import annotations

from typing import List, Optional, Tuple

from ..js import utf16_len
from ..js_regex import js_re

# (where "\boxed" starts, where its content starts, where its closing brace is)
_Box = Tuple[int, int, int]


def _outer_boxes(text: str) -> List[_Box]:
    """Every outermost balanced box, in order; `\\{` and `\\}` are characters, not braces."""
    opens: List[Optional[Tuple[int, int]]] = []
    found: List[_Box] = []
    i = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            if i + 1 < n and text[i + 1] == "\\" and (text.startswith("boxed", i + 2) or text.startswith("fbox", i + 2)):
                i += 1
                continue
            name = 5 if text.startswith("boxed", i + 1) else 4 if text.startswith("fbox", i + 1) else 0
            if name == 0:
                i += 2
                continue
            j = i + 1 + name
            while j < n and text[j] in " \t\n":
                j += 1
            if j < n and text[j] == "{":
                opens.append((i, j + 1))
                i = j
        elif c == "{":
            opens.append(None)
        elif c == "}" and opens:
            open_ = opens.pop()
            if open_ is not None:
                while found and found[-1][0] > open_[0]:
                    found.pop()
                found.append((open_[0], open_[1], i))
        i += 1
    return found


MAX_GAP = 80
MAX_GAP_WORDS = 4
_TEXT = js_re(r"\\text\s*\{([^{}]*)\}")
_COMMAND = js_re(r"\\[A-Za-z]+|\\.")
_TRAILING_NAME = js_re(r"[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?\s*=\s*$")
_WORD = js_re(r"[A-Za-z]+")


def _connects(gap: str) -> bool:
    """Whether the text between two boxes only connects them (see the app's connects)."""
    if utf16_len(gap) > MAX_GAP:
        return False
    plain = _TRAILING_NAME.sub("", _COMMAND.sub(" ", _TEXT.sub(r" \1 ", gap)), count=1)
    words = _WORD.findall(plain)
    if not words:
        return True
    return len(words) <= MAX_GAP_WORDS and words[-1] in ("and", "or") and "\n" not in gap


def last_boxes(text: str) -> Optional[str]:
    """The last box's content, or the contents of the last boxes that connect, joined as a list ("1, 2")."""
    boxes = _outer_boxes(text)
    if not boxes:
        return None
    first = len(boxes) - 1
    while first > 0 and _connects(text[boxes[first - 1][2] + 1 : boxes[first][0]]):
        first -= 1
    return ", ".join(text[b[1] : b[2]] for b in boxes[first:])
