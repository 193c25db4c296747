"""Mathematics in an answer key, parsed, as the app's src/engine/data/answers/mathParse.ts: numbers, variables (x, x_1,
\\alpha), + − × ÷, powers, \\frac, \\sqrt, functions (\\sin, \\ln, \\log_b …), |x|, n!, and products written side by
side. Nodes are tuples: ("num", rational), ("var", name), ("pi",), ("inf",), ("neg", a), (op, a, b) for add,
sub, mul, div, pow, root (a, index) and log (a, base), ("fn", name, a). Bounded: text over MAX_MATH_CHARS, nested
past MAX_MATH_DEPTH or with more than MAX_MATH_LINKS operations is not parsed (None), so a tree stays
shallow enough for the evaluators' recursion."""
from __future__ import annotations

from typing import Optional

from ..js import utf16_len
from ..js_regex import js_re
from .rational import int_of, rational

MAX_MATH_CHARS = 1000
MAX_MATH_DEPTH = 60
MAX_MATH_LINKS = 200

_FUNCTIONS = frozenset(["sin", "cos", "tan", "sec", "csc", "cot", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "ln", "log", "exp"])
_PLAIN_FUNCTIONS = ("arcsin", "arccos", "arctan", "sqrt", "sin", "cos", "tan", "ln", "log", "exp")
_GREEK = frozenset(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Sigma Phi Psi Omega".split(" ")
)
_SUBSCRIPT = js_re(r"^[A-Za-z0-9]+$")


def _is_digit(c: Optional[str]) -> bool:
    return c is not None and "0" <= c <= "9"


def _is_letter(c: Optional[str]) -> bool:
    return c is not None and (("a" <= c <= "z") or ("A" <= c <= "Z"))


class _Fail(Exception):
    pass


class _Parser:
    def __init__(self, s: str) -> None:
        self.s = s
        self.i = 0
        self.depth = 0
        self.links = 0
        self.abs = 0

    def at(self, k: int = 0) -> Optional[str]:
        j = self.i + k
        return self.s[j] if j < len(self.s) else None

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_MATH_DEPTH:
            raise _Fail

    def link(self) -> None:
        self.links += 1
        if self.links > MAX_MATH_LINKS:
            raise _Fail

    def skip(self) -> None:
        while self.at() == " ":
            self.i += 1

    def eat(self, t: str) -> bool:
        self.skip()
        if not self.s.startswith(t, self.i):
            return False
        if t.startswith("\\") and _is_letter(self.at(len(t))):
            return False
        self.i += len(t)
        return True

    def expect(self, t: str) -> None:
        if not self.eat(t):
            raise _Fail

    def command(self) -> str:
        j = self.i + 1
        while j < len(self.s) and _is_letter(self.s[j]):
            j += 1
        return self.s[self.i + 1 : j]

    def sum(self):
        self.enter()
        a = self.term()
        while True:
            if self.eat("+"):
                a = ("add", a, self.term())
            elif self.eat("-"):
                a = ("sub", a, self.term())
            else:
                break
            self.link()
        self.depth -= 1
        return a

    def term(self):
        a = self.unary()
        while True:
            if self.eat("*") or self.eat("\\cdot") or self.eat("\\times"):
                a = ("mul", a, self.unary())
            elif self.eat("/") or self.eat("\\div"):
                a = ("div", a, self.unary())
            elif self.starts_primary():
                a = ("mul", a, self.power())
            else:
                return a
            self.link()

    def unary(self):
        self.enter()
        if self.eat("-"):
            out = ("neg", self.unary())
        elif self.eat("+"):
            out = self.unary()
        else:
            out = self.power()
        self.depth -= 1
        return out

    def power(self):
        a = self.primary()
        while self.eat("!"):
            a = ("fn", "fact", a)
            self.link()
        return ("pow", a, self.argument(True)) if self.eat("^") else a

    def group(self, open_: str, close: str):
        self.expect(open_)
        a = self.sum()
        self.expect(close)
        return a

    def starts_primary(self) -> bool:
        self.skip()
        c = self.at()
        if _is_digit(c) or _is_letter(c) or c in ("(", "[", "{") or (c == "." and _is_digit(self.at(1))):
            return True
        if c == "|":
            return self.abs == 0
        if c != "\\":
            return False
        name = self.command()
        return name in ("frac", "sqrt", "pi", "infty") or name in _GREEK or name in _FUNCTIONS

    def primary(self):
        self.enter()
        self.skip()
        c = self.at()
        if _is_digit(c) or c == ".":
            out = self.number()
        elif _is_letter(c):
            out = self.letter()
        elif c == "(":
            out = self.group("(", ")")
        elif c == "[":
            out = self.group("[", "]")
        elif c == "{":
            out = self.group("{", "}")
        elif c == "|":
            self.abs += 1
            out = ("fn", "abs", self.group("|", "|"))
            self.abs -= 1
        elif c == "\\":
            out = self.latex()
        else:
            raise _Fail
        self.depth -= 1
        return out

    def number(self):
        start = self.i
        while _is_digit(self.at()):
            self.i += 1
        whole = self.s[start : self.i]
        frac = ""
        if self.at() == "." and _is_digit(self.at(1)):
            self.i += 1
            at = self.i
            while _is_digit(self.at()):
                self.i += 1
            frac = self.s[at : self.i]
        if whole == "" and frac == "":
            raise _Fail
        return ("num", rational(int_of("0" + whole + frac), 10 ** len(frac)))

    def letter(self):
        for f in _PLAIN_FUNCTIONS:
            if self.s.startswith(f + "(", self.i):
                self.i += len(f)
                return ("fn", f, self.group("(", ")"))
        # Three letters in a row are a word ("hours", "and"), not a product of variables.
        if not _is_letter(self.at(-1) if self.i > 0 else None) and _is_letter(self.at(1)) and _is_letter(self.at(2)):
            raise _Fail
        name = self.s[self.i]
        self.i += 1
        if self.at() == "_":
            self.i += 1
            if self.at() == "{":
                sub = self.braced()
            else:
                sub = self.at()
                self.i += 1
            if sub is None or _SUBSCRIPT.match(sub) is None:
                raise _Fail
            name += "_" + sub
        return ("var", name)

    def braced(self) -> str:
        close = self.s.find("}", self.i)
        if close < 0:
            raise _Fail
        inner = self.s[self.i + 1 : close]
        self.i = close + 1
        return inner

    def argument(self, exponent: bool = False):
        """One LaTeX argument: a {group}, one digit, one letter or a command; an exponent may be signed or bracketed."""
        self.skip()
        c = self.at()
        if c == "{":
            return self.group("{", "}")
        if exponent and c in ("-", "+"):
            self.i += 1
            self.enter()
            a = self.argument(True)
            self.depth -= 1
            return ("neg", a) if c == "-" else a
        if _is_digit(c):
            self.i += 1
            return ("num", (int(c), 1))
        if _is_letter(c):
            self.i += 1
            return ("var", c)
        if c == "\\" or (exponent and c == "("):
            return self.primary()
        raise _Fail

    def latex(self):
        name = self.command()
        self.i += len(name) + 1
        if name == "frac":
            return ("div", self.argument(), self.argument())
        if name == "sqrt":
            index = self.group("[", "]") if self.at() == "[" else None
            a = self.argument()
            return ("fn", "sqrt", a) if index is None else ("root", a, index)
        if name == "pi":
            return ("pi",)
        if name == "infty":
            return ("inf",)
        if name in _GREEK:
            return ("var", "\\" + name)
        if name not in _FUNCTIONS:
            raise _Fail
        power = self.argument(True) if self.eat("^") else None
        base = self.argument(True) if name == "log" and self.eat("_") else None
        self.skip()
        arg = self.group("(", ")") if self.at() == "(" else self.power()
        applied = ("fn", name, arg) if base is None else ("log", arg, base)
        return applied if power is None else ("pow", applied, power)


def parse_math(s: str):
    """The expression `s` is, or None when it is not one (or is over the bounds)."""
    if utf16_len(s) > MAX_MATH_CHARS:
        return None
    p = _Parser(s)
    try:
        node = p.sum()
        p.skip()
        return node if p.i == len(s) else None
    except _Fail:
        return None
