/**
 * Mathematics in an answer key, parsed: numbers, variables (x, x_1, \alpha), + − × ÷, powers, \frac, \sqrt,
 * functions (\sin, \ln, \log_b …), |x|, n!, and products written side by side ("2x", "2\sqrt{3}", "(x+1)(x-1)").
 * python/eorm/answers/math_parse.py is the twin. Bounded: text over MAX_MATH_CHARS, nested past MAX_MATH_DEPTH or with
 * more than MAX_MATH_LINKS operations is not parsed (null), so parsing reads at most MAX_MATH_CHARS
 * characters once, and a parsed tree is shallow enough for the evaluators' recursion (on both sides).
 */
import { type Rational, rational } from './rational.ts';

export const MAX_MATH_CHARS = 1000;
export const MAX_MATH_DEPTH = 60;
/** + − × ÷ and ! operations at most in one expression: each is one more level of the tree. */
export const MAX_MATH_LINKS = 200;

export type MathNode =
  | { op: 'num'; value: Rational }
  | { op: 'var'; name: string }
  | { op: 'pi' | 'inf' }
  | { op: 'neg'; a: MathNode }
  | { op: 'add' | 'sub' | 'mul' | 'div' | 'pow' | 'root' | 'log'; a: MathNode; b: MathNode }
  | { op: 'fn'; name: string; a: MathNode };

const FUNCTIONS = new Set(['sin', 'cos', 'tan', 'sec', 'csc', 'cot', 'arcsin', 'arccos', 'arctan', 'sinh', 'cosh', 'tanh', 'ln', 'log', 'exp']);
/** Functions also read without a backslash, before a bracket ("sqrt(2)", "sin(x)"). */
const PLAIN_FUNCTIONS = ['arcsin', 'arccos', 'arctan', 'sqrt', 'sin', 'cos', 'tan', 'ln', 'log', 'exp'];
const GREEK = new Set(
  'alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu xi rho sigma tau upsilon phi varphi chi psi omega Gamma Delta Theta Lambda Xi Sigma Phi Psi Omega'.split(
    ' ',
  ),
);
const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isLetter = (c: string | undefined): boolean => c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));

class Fail extends Error {}

class Parser {
  i = 0;
  depth = 0;
  links = 0;
  abs = 0;
  constructor(readonly s: string) {}

  fail(): never {
    throw new Fail();
  }
  enter(): void {
    if (++this.depth > MAX_MATH_DEPTH) this.fail();
  }
  link(): void {
    if (++this.links > MAX_MATH_LINKS) this.fail();
  }
  skip(): void {
    while (this.s[this.i] === ' ') this.i++;
  }
  eat(t: string): boolean {
    this.skip();
    if (!this.s.startsWith(t, this.i)) return false;
    // A command is eaten whole: "\cdot" does not eat the start of "\cdots".
    if (t.startsWith('\\') && isLetter(this.s[this.i + t.length])) return false;
    this.i += t.length;
    return true;
  }
  expect(t: string): void {
    if (!this.eat(t)) this.fail();
  }
  command(): string {
    let j = this.i + 1;
    while (isLetter(this.s[j])) j++;
    return this.s.slice(this.i + 1, j);
  }

  sum(): MathNode {
    this.enter();
    let a = this.term();
    for (; ; this.link()) {
      if (this.eat('+')) a = { op: 'add', a, b: this.term() };
      else if (this.eat('-')) a = { op: 'sub', a, b: this.term() };
      else break;
    }
    this.depth--;
    return a;
  }

  term(): MathNode {
    let a = this.unary();
    for (; ; this.link()) {
      if (this.eat('*') || this.eat('\\cdot') || this.eat('\\times')) a = { op: 'mul', a, b: this.unary() };
      else if (this.eat('/') || this.eat('\\div')) a = { op: 'div', a, b: this.unary() };
      else if (this.startsPrimary()) a = { op: 'mul', a, b: this.power() };
      else return a;
    }
  }

  unary(): MathNode {
    this.enter();
    let out: MathNode;
    if (this.eat('-')) out = { op: 'neg', a: this.unary() };
    else if (this.eat('+')) out = this.unary();
    else out = this.power();
    this.depth--;
    return out;
  }

  power(): MathNode {
    let a = this.primary();
    for (; this.eat('!'); this.link()) a = { op: 'fn', name: 'fact', a };
    return this.eat('^') ? { op: 'pow', a, b: this.argument(true) } : a;
  }

  group(open: string, close: string): MathNode {
    this.expect(open);
    const a = this.sum();
    this.expect(close);
    return a;
  }

  startsPrimary(): boolean {
    this.skip();
    const c = this.s[this.i];
    if (isDigit(c) || isLetter(c) || c === '(' || c === '[' || c === '{' || (c === '.' && isDigit(this.s[this.i + 1]))) return true;
    if (c === '|') return this.abs === 0;
    if (c !== '\\') return false;
    const name = this.command();
    return name === 'frac' || name === 'sqrt' || name === 'pi' || name === 'infty' || GREEK.has(name) || FUNCTIONS.has(name);
  }

  primary(): MathNode {
    this.enter();
    this.skip();
    const c = this.s[this.i];
    let out: MathNode;
    if (isDigit(c) || c === '.') out = this.number();
    else if (isLetter(c)) out = this.letter();
    else if (c === '(') out = this.group('(', ')');
    else if (c === '[') out = this.group('[', ']');
    else if (c === '{') out = this.group('{', '}');
    else if (c === '|') {
      this.abs++;
      out = { op: 'fn', name: 'abs', a: this.group('|', '|') };
      this.abs--;
    } else if (c === '\\') out = this.latex();
    else out = this.fail();
    this.depth--;
    return out;
  }

  number(): MathNode {
    const from = this.i;
    while (isDigit(this.s[this.i])) this.i++;
    const whole = this.s.slice(from, this.i);
    let frac = '';
    if (this.s[this.i] === '.' && isDigit(this.s[this.i + 1])) {
      const at = ++this.i;
      while (isDigit(this.s[this.i])) this.i++;
      frac = this.s.slice(at, this.i);
    }
    if (whole === '' && frac === '') this.fail();
    return { op: 'num', value: rational(BigInt(`0${whole}${frac}`), 10n ** BigInt(frac.length))! };
  }

  /** A variable with its subscript ("x", "x_1", "a_{37}"), or a function written without a backslash before "(". Words are not mathematics. */
  letter(): MathNode {
    for (const f of PLAIN_FUNCTIONS) {
      if (this.s.startsWith(`${f}(`, this.i)) {
        this.i += f.length;
        return { op: 'fn', name: f, a: this.group('(', ')') };
      }
    }
    // Three letters in a row are a word ("hours", "and"), not a product of variables.
    if (!isLetter(this.s[this.i - 1]) && isLetter(this.s[this.i + 1]) && isLetter(this.s[this.i + 2])) this.fail();
    let name = this.s[this.i++];
    if (this.s[this.i] === '_') {
      this.i++;
      const sub = this.s[this.i] === '{' ? this.braced() : this.s[this.i++];
      if (sub === undefined || !/^[A-Za-z0-9]+$/.test(sub)) this.fail();
      name += `_${sub}`;
    }
    return { op: 'var', name };
  }

  /** The text of a {group} without nested braces (a subscript). */
  braced(): string {
    const close = this.s.indexOf('}', this.i);
    if (close < 0) this.fail();
    const inner = this.s.slice(this.i + 1, close);
    this.i = close + 1;
    return inner;
  }

  /**
   * One LaTeX argument (of \frac, \sqrt, ^): a {group}, one digit, one letter or a command ("x^23" is x² · 3);
   * an exponent may also be signed or in brackets.
   */
  argument(exponent = false): MathNode {
    this.skip();
    const c = this.s[this.i];
    if (c === '{') return this.group('{', '}');
    if (exponent && (c === '-' || c === '+')) {
      this.i++;
      this.enter();
      const a = this.argument(true);
      this.depth--;
      return c === '-' ? { op: 'neg', a } : a;
    }
    if (isDigit(c)) return { op: 'num', value: { num: BigInt(this.s[this.i++]), den: 1n } };
    if (isLetter(c)) return { op: 'var', name: this.s[this.i++] };
    if (c === '\\' || (exponent && c === '(')) return this.primary();
    return this.fail();
  }

  latex(): MathNode {
    const name = this.command();
    this.i += name.length + 1;
    if (name === 'frac') return { op: 'div', a: this.argument(), b: this.argument() };
    if (name === 'sqrt') {
      const index = this.s[this.i] === '[' ? this.group('[', ']') : null;
      const a = this.argument();
      return index === null ? { op: 'fn', name: 'sqrt', a } : { op: 'root', a, b: index };
    }
    if (name === 'pi') return { op: 'pi' };
    if (name === 'infty') return { op: 'inf' };
    if (GREEK.has(name)) return { op: 'var', name: `\\${name}` };
    if (!FUNCTIONS.has(name)) return this.fail();
    const power = this.eat('^') ? this.argument(true) : null;
    const base = name === 'log' && this.eat('_') ? this.argument(true) : null;
    this.skip();
    const arg = this.s[this.i] === '(' ? this.group('(', ')') : this.power();
    const applied: MathNode = base === null ? { op: 'fn', name, a: arg } : { op: 'log', a: arg, b: base };
    return power === null ? applied : { op: 'pow', a: applied, b: power };
  }
}

/** The expression `s` is, or null when it is not one (or is over the bounds). */
export function parseMath(s: string): MathNode | null {
  if (s.length > MAX_MATH_CHARS) return null;
  const p = new Parser(s);
  try {
    const node = p.sum();
    p.skip();
    return p.i === s.length ? node : null;
  } catch (e) {
    if (e instanceof Fail) return null;
    throw e;
  }
}
