"""What an answer is, read as a grader reads it, as the app's src/engine/data/answers/answerForm.ts: working and
approximations dropped, then a number, a sentence around one number, a collection, a ± pair, a relation, else
an expression or text. Reading a key again gives the same form, so two keys compare as the mathematics they
stand for (answer_equality.py)."""
from __future__ import annotations

from typing import Optional

from .answer_collections import collection_form
from .answer_form_kinds import Form, Reader, compact, number_form
from .answer_number import NUMBER_TOKEN, parse_number
from .answer_relations import plus_minus_form, relation_form
from .answer_split import command_at, is_equals, is_name, or_and, split_top
from ..js import trim, utf16_len
from ..js_regex import js_re
from .linear_latex import MAX_DEPTH, linear_latex
from .math_eval import exact_value, variables
from .math_parse import parse_math
from .rational import Rational

_WORDS = js_re(r"^[A-Za-z][A-Za-z\s'-]*$")


def _expression_form(t: str, depth: int) -> Optional[Form]:
    """Words without case or spaces; mathematics by its value or its linear LaTeX; else text."""
    text = compact(t)
    if text == "":
        return None
    if _WORDS.match(t) and utf16_len(text) >= 2:
        return Form("text", text.lower())
    key = linear_latex(text, depth)
    node = parse_math(key)
    if node is None:
        return Form("text", key)
    exact = exact_value(node)
    return Form("expr", key, node=node) if exact is None else number_form(exact)


_TWO_LETTERS = js_re(r"[A-Za-z]{2,}")
_MATHEMATICS = js_re(r"[+*/=^_{}\\<>|]")


def _number_in_sentence(s: str) -> Optional[Rational]:
    """"Janet makes $18 every day": words around exactly one number (not around mathematics)."""
    if not _TWO_LETTERS.search(s) or _MATHEMATICS.search(NUMBER_TOKEN.sub("", s)):
        return None
    found = NUMBER_TOKEN.findall(s)
    return None if len(found) != 1 else parse_number(found[0])


_THOUSANDS = js_re(r"\d,\d{3}(?!\d)")


def _list_comma(s: str, i: int) -> int:
    """A comma or semicolon that separates parts: not a thousands comma ("$1,596")."""
    if s[i] == ";":
        return 1
    return 1 if s[i] == "," and not (i > 0 and _THOUSANDS.match(s[i - 1 : i + 5])) else 0


def _constant_text(s: str) -> bool:
    if parse_number(s) is not None:
        return True
    node = parse_math(linear_latex(compact(s), 0))
    return node is not None and len(variables(node)) == 0


_COMMANDS = js_re(r"\\[A-Za-z]+")
_DIGIT = js_re(r"\d")
_LETTER = js_re(r"[A-Za-z]")


def _result(s: str) -> str:
    """Working before the result ("9 * 2 = 18", "x = 5+5+1 = 11"); not an equation nor a list."""
    parts = split_top(s, is_equals)
    if len(parts) < 2 or len(split_top(s, _list_comma)) > 1 or len(split_top(s, or_and)) > 1:
        return s
    last = trim(parts[-1])
    if len(parts) > 2:
        return last if _constant_text(last) else s
    working = _COMMANDS.sub("", parts[0])
    return last if _DIGIT.search(working) and not _LETTER.search(working) and _constant_text(last) else s


def _approximation(s: str) -> str:
    """"x \\approx 11" is 11; "x = 1/3 \\approx 0.33" is x = 1/3."""
    parts = split_top(s, lambda t, i: command_at(t, i, ("approx",)))
    if len(parts) < 2:
        return s
    return parts[0] if "=" in parts[0] else parts[-1]


def _membership(s: str) -> str:
    """"x \\in [-2, 7]" is the set."""
    parts = split_top(s, lambda t, i: command_at(t, i, ("in",)))
    return parts[1] if len(parts) == 2 and is_name(parts[0]) else s


def form_of(s: str, depth: int, read: Optional[Reader] = None) -> Optional[Form]:
    """The form of an unwrapped answer or of a key, or None when nothing is left. `read` reads its parts."""
    read = form_of if read is None else read
    if depth >= MAX_DEPTH:
        return None
    t = _result(trim(_approximation(_membership(trim(s)))))
    if t == "":
        return None
    n = parse_number(t)
    if n is not None:
        return number_form(n)
    sentence = _number_in_sentence(t) if depth == 0 else None
    if sentence is not None:
        return number_form(sentence)
    for f in (collection_form, plus_minus_form, relation_form):
        got = f(t, depth, read)
        if got is not None:
            return got
    return _expression_form(t, depth)
