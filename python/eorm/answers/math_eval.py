"""Values of parsed expressions (math_parse.py), as the app's src/engine/data/answers/mathEval.ts: exact when the
expression is a rational constant, else doubles at fixed points, with the same points and operations as the
app and a tolerance far above the last bits in which libm and V8's Math may differ. Where Python raises
(overflow, a domain error, division by zero) the value is NaN, as where the app's result is not finite."""
from __future__ import annotations

import math
from typing import Callable, Dict, List, Optional, Set

from .rational import Rational, add, div, factorial, mul, pow_, sqrt, sub, to_double

_EXACT_OPS = {"add": add, "sub": sub, "mul": mul, "div": div, "pow": pow_}


def exact_value(n) -> Optional[Rational]:
    """The exact value of a constant expression with a rational value, or None."""
    op = n[0]
    if op == "num":
        return n[1]
    if op == "neg":
        a = exact_value(n[1])
        return None if a is None else (-a[0], a[1])
    if op in _EXACT_OPS:
        a = exact_value(n[1])
        b = None if a is None else exact_value(n[2])
        return None if a is None or b is None else _EXACT_OPS[op](a, b)
    if op == "fn" and n[1] in ("sqrt", "abs", "fact"):
        a = exact_value(n[2])
        if a is None:
            return None
        if n[1] == "abs":
            return (abs(a[0]), a[1])
        return sqrt(a) if n[1] == "sqrt" else factorial(a)
    return None


def _children(n) -> tuple:
    if n[0] in ("num", "var", "pi", "inf"):
        return ()
    if n[0] == "neg":
        return (n[1],)
    if n[0] == "fn":
        return (n[2],)
    return (n[1], n[2])


def variables(n, out: Optional[Set[str]] = None) -> Set[str]:
    out = set() if out is None else out
    if n[0] == "var":
        out.add(n[1])
    for c in _children(n):
        variables(c, out)
    return out


def _finite(*xs: float) -> bool:
    return all(math.isfinite(x) for x in xs)


def _defined(r: float, *args: float) -> float:
    return r if math.isfinite(r) or not _finite(*args) else math.nan


def _guard(f: Callable[[float], float]) -> Callable[[float], float]:
    def call(x: float) -> float:
        try:
            return f(x)
        except (ValueError, OverflowError, ZeroDivisionError):
            return math.nan

    return call


def _is_integer(x: float) -> bool:
    return math.isfinite(x) and x == math.floor(x)


def _power(a: float, b: float) -> float:
    """a^b where it is one real number (1^inf and 1^NaN are undefined, as in the app)."""
    if math.isnan(a) or not math.isfinite(b) or (a == 0 and b < 0) or (a < 0 and not _is_integer(b)):
        return math.nan
    try:
        return _defined(math.pow(a, b), a, b)
    except (ValueError, OverflowError):
        return math.nan


def _root(a: float, n: float) -> float:
    if n == 0 or math.isnan(n):
        return math.nan
    if a < 0 and _is_integer(n) and abs(math.fmod(n, 2)) == 1:
        return -_power(-a, 1 / n)
    return _power(a, 1 / n)


def _div(a: float, b: float) -> float:
    return math.nan if b == 0 else _defined(a / b, a, b)


def _factorial(a: float) -> float:
    if not _is_integer(a) or a < 0 or a > 170:
        return math.nan
    out = 1.0
    for k in range(2, int(a) + 1):
        out *= k
    return out


_FUNCTIONS: Dict[str, Callable[[float], float]] = {
    name: _guard(f)
    for name, f in {
        "sin": math.sin, "cos": math.cos, "tan": math.tan, "sec": lambda x: 1 / math.cos(x), "csc": lambda x: 1 / math.sin(x),
        "cot": lambda x: math.cos(x) / math.sin(x), "arcsin": math.asin, "arccos": math.acos, "arctan": math.atan,
        "sinh": math.sinh, "cosh": math.cosh, "tanh": math.tanh, "ln": lambda x: math.log(x) if x > 0 else math.nan,
        "log": lambda x: math.log(x) if x > 0 else math.nan, "exp": math.exp, "sqrt": lambda x: math.sqrt(x) if x >= 0 else math.nan,
        "abs": abs, "fact": _factorial,
    }.items()
}


def value_at(n, env: Dict[str, float]) -> float:
    """The value at the given values of the variables (NaN where undefined)."""
    op = n[0]
    if op == "num":
        return to_double(n[1])
    if op == "var":
        return env.get(n[1], math.nan)
    if op == "pi":
        return math.pi
    if op == "inf":
        return math.inf
    if op == "neg":
        return -value_at(n[1], env)
    if op == "fn":
        a = value_at(n[2], env)
        return _defined(_FUNCTIONS[n[1]](a), a)
    a = value_at(n[1], env)
    b = value_at(n[2], env)
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op == "div":
        return _div(a, b)
    if op == "pow":
        return _power(a, b)
    if op == "root":
        return _root(a, b)
    return _defined(math.log(a) / math.log(b), a, b) if a > 0 and b > 0 and b != 1 else math.nan


_BASES = (0.6180339887, 1.3247179572, 2.2360679775)
_STEPS = (0.7071067812, 0.5772156649, 0.3010299957)
MAX_VARIABLES = 16


def points(names) -> List[Dict[str, float]]:
    """The points to evaluate at (the k-th variable, sorted, is BASES[p] + STEPS[p]·k); one without variables."""
    ordered = sorted(names, key=lambda k: k.encode("utf-16-be", "surrogatepass"))
    count = 1 if not ordered else len(_BASES)
    return [{name: _BASES[p] + _STEPS[p] * k for k, name in enumerate(ordered)} for p in range(count)]


def compare_values(a: float, b: float) -> str:
    """"same", "differ", or "undefined" (both undefined there)."""
    if math.isnan(a) or math.isnan(b):
        return "undefined" if math.isnan(a) and math.isnan(b) else "differ"
    if not _finite(a, b):
        return "same" if a == b else "differ"
    return "same" if abs(a - b) <= 1e-9 * max(abs(a), abs(b)) + 1e-12 else "differ"
