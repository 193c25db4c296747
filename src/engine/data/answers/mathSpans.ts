/**
 * The last piece of mathematics in a text: `$$…$$`, `\[…\]`, `\(…\)` or `$…$`, where a grader takes the
 * answer when nothing marks one. A single `$` opens only before a non-space and closes only after a non-space
 * and not before a digit, on one line (pandoc's rule), so prices ("$5 and $6") are not mathematics; with a
 * LaTeX command inside, spaces may stand inside the dollars ("$ \frac{1}{3} $").
 * python/eorm/answers/math_spans.py is the twin. Linear: each position is looked at a bounded number of times.
 */

export interface Span {
  content: string;
  /** Just after the closing delimiter. */
  end: number;
}

const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r';

/**
 * For each position, the first `$` at or after it on its line that may close inline math (-1: none): strictly
 * (pandoc's rule), and any single unescaped `$`; and the first backslash at or after it.
 */
function inlineClosers(text: string): { strict: Int32Array; loose: Int32Array; backslash: Int32Array } {
  const n = text.length;
  const [strict, loose, backslash] = [new Int32Array(n + 1).fill(-1), new Int32Array(n + 1).fill(-1), new Int32Array(n + 1).fill(-1)];
  for (let k = n - 1; k >= 0; k--) {
    const c = text[k];
    backslash[k] = c === '\\' ? k : backslash[k + 1];
    if (c === '\n') continue;
    const single = c === '$' && text[k - 1] !== '\\' && text[k - 1] !== '$' && text[k + 1] !== '$';
    loose[k] = single ? k : loose[k + 1];
    strict[k] = single && !isSpace(text[k - 1]) && !/[0-9]/.test(text[k + 1] ?? '') ? k : strict[k + 1];
  }
  return { strict, loose, backslash };
}

/** text.indexOf(needle, from) for rising `from`: a search is reused while its answer lies ahead, so all searches read the text once. */
class NextIndex {
  private found = -2;
  constructor(
    readonly text: string,
    readonly needle: string,
  ) {}
  from(from: number): number {
    if (this.found === -1 || this.found >= from) return this.found;
    this.found = this.text.indexOf(this.needle, from);
    return this.found;
  }
}

/** The last math span of `text`, or null. */
export function lastMathSpan(text: string): Span | null {
  const closers = inlineClosers(text);
  const [paren, bracket, display, newline] = ['\\)', '\\]', '$$', '\n'].map((n) => new NextIndex(text, n));
  let last: Span | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') {
      const close = text[i + 1] === '(' ? paren : text[i + 1] === '[' ? bracket : null;
      const j = close === null ? -1 : close.from(i + 2);
      // \(…\) is inline: on one line.
      if (j >= 0 && !(close === paren && newline.from(i + 2) >= 0 && newline.from(i + 2) < j)) {
        last = { content: text.slice(i + 2, j), end: j + 2 };
        i = j + 1;
      } else i++;
    } else if (c === '$' && text[i + 1] === '$') {
      const j = display.from(i + 2);
      if (j < 0) return last;
      last = { content: text.slice(i + 2, j), end: j + 2 };
      i = j + 1;
    } else if (c === '$') {
      const loose = closers.loose[i + 1];
      const command = loose >= 0 && closers.backslash[i + 1] >= 0 && closers.backslash[i + 1] < loose;
      const k = command ? loose : !isSpace(text[i + 1]) && i + 2 <= text.length ? closers.strict[i + 2] : -1;
      if (k >= 0) {
        last = { content: text.slice(i + 1, k), end: k + 1 };
        i = k;
      }
    }
  }
  return last;
}
