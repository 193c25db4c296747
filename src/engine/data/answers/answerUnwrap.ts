/**
 * What does not change an answer, stripped before it is keyed (answerKey.ts): math delimiters, \boxed, \text
 * and friends, emphasis, quotes, spacing commands, degrees; and characters spelled one LaTeX way (dashes,
 * ×, ≤, π, ½ …). MATH's `is_equiv` normalisation is the floor. python/eorm/answers/answer_unwrap.py is the twin.
 * Each step reads the answer once; at most MAX_UNWRAP_PASSES passes.
 */

/** Nested wrappers stripped at most (`$\boxed{\text{18}}$` has 3): each pass reads the whole answer once. */
const MAX_UNWRAP_PASSES = 8;

const VULGAR_FRACTIONS = '½⅓⅔¼¾⅕⅖⅗⅘⅙⅚⅛⅜⅝⅞⅐⅑⅒';
const VULGAR_VALUES = ['1/2', '1/3', '2/3', '1/4', '3/4', '1/5', '2/5', '3/5', '4/5', '1/6', '5/6', '1/8', '3/8', '5/8', '7/8', '1/7', '1/9', '1/10'];

/** Unicode a model writes for LaTeX: every minus-like dash (not the em dash of prose), operators, relations, constants. */
const CHARACTERS = new Map<string, string>([
  ...['\u2010', '\u2011', '\u2012', '\u2013', '\u2212', '\ufe63', '\uff0d'].map((c): [string, string] => [c, '-']),
  ['×', '\\times '],
  ['÷', '\\div '],
  ['·', '\\cdot '],
  ['⋅', '\\cdot '],
  ['≤', '\\leq '],
  ['≥', '\\geq '],
  ['≠', '\\neq '],
  ['π', '\\pi '],
  ['∞', '\\infty '],
  ['√', '\\sqrt '],
  ['±', '\\pm '],
  ['∪', '\\cup '],
  ['∈', '\\in '],
  ['²', '^2'],
  ['³', '^3'],
  ['⁄', '/'],
]);

/** One pass over the characters: each mapped one is replaced; a vulgar fraction after a digit starts a mixed number ("2½" → "2 1/2"). */
function spellCharacters(s: string): string {
  let out = '';
  for (const c of s) {
    const v = VULGAR_FRACTIONS.indexOf(c);
    if (v >= 0) out += `${out !== '' && out[out.length - 1] >= '0' && out[out.length - 1] <= '9' ? ' ' : ''}${VULGAR_VALUES[v]}`;
    else out += CHARACTERS.get(c) ?? c;
  }
  return out;
}

/** `$…$`, `$$…$$` (any run of dollars on each side, none inside) → its content. */
function stripDollars(s: string): string {
  let a = 0;
  while (a < s.length && s.charCodeAt(a) === 0x24) a++;
  if (a === 0) return s;
  if (a === s.length) return a >= 2 ? '' : s;
  let b = s.length;
  while (s.charCodeAt(b - 1) === 0x24) b--;
  if (b === s.length) return s;
  const inner = s.slice(a, b);
  return inner.includes('$') ? s : inner;
}

/** Math delimiters inside an answer ("$12$ and $13$"): two or more unescaped dollars, an even count, all dropped. */
function dropInnerDollars(s: string): string {
  const count = (s.match(/(?<!\\)\$/g) ?? []).length;
  return count >= 2 && count % 2 === 0 ? s.replace(/(?<!\\)\$/g, '') : s;
}

/** Drops trailing sentence punctuation and whitespace ("18. " → "18"); each step removes characters, so it is linear. */
function trimEndPunctuation(s: string): string {
  let end = s.length;
  for (;;) {
    while (end > 0 && /\s/.test(s[end - 1])) end--;
    if (end > 0 && '.,;:'.includes(s[end - 1])) end--;
    else break;
  }
  return s.slice(0, end);
}

/** Markdown emphasis (every `**`, then one `*` or `__` around the whole answer) and quotes around it ("60", `60`). */
function stripEmphasis(s: string): string {
  const out = s.replaceAll('**', '');
  for (const mark of ['*', '__', '"', "'", '`']) {
    if (out.length > 2 * mark.length && out.startsWith(mark) && out.endsWith(mark)) return out.slice(mark.length, -mark.length);
  }
  return out;
}

/** `\boxed{…}` / `\fbox{…}` around the whole answer (its brace closes last) → its content. */
function stripBox(s: string): string {
  const m = /^\\(?:boxed|fbox)\s*\{/.exec(s);
  if (m === null || !s.endsWith('}')) return s;
  let depth = 0;
  for (let i = m[0].length - 1; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '{') depth++;
    else if (s[i] === '}' && --depth === 0) return i === s.length - 1 ? s.slice(m[0].length, -1) : s;
  }
  return s;
}

const UNWRAP_STEPS: Array<[RegExp, string]> = [
  // A doubled backslash before a command is an escaping slip ("\\frac"), as MATH's normalisation also reads it.
  [/(?<!\\)\\\\(?=[A-Za-z])/g, '\\'],
  [/^\\\((.*)\\\)$/s, '$1'],
  [/^\\\[(.*)\\\]$/s, '$1'],
  [
    /\\(?:text|textbf|textit|textrm|textup|textsf|texttt|textnormal|mathrm|mathbf|mathit|mathsf|mathtt|mathbb|mathcal|boldsymbol|bm|mbox|operatorname)\s*\{([^{}]*)\}/g,
    '$1',
  ],
  [/\\(?:left|right|bigl|bigr|Bigl|Bigr|biggl|biggr|big|Big|bigg|Bigg)\b/g, ''],
  [/\\(?:q?quad|displaystyle)\b/g, ''],
  // "32,\! 349": a thin space after a thousands comma, not a list.
  [/,\\!\s*/g, ','],
  [/(?<!\\)\\[!,;: ]/g, ''],
  // "1{,}000", "14 {, }916": a thousands comma in braces (at most one space around: linear).
  [/ ?\{\s*,\s*\} ?/g, ','],
  [/\\%/g, '%'],
  // Degrees: "90^\circ", "90^{\circ}", "90°" are 90 (an angle's unit is the question's).
  [/\^\s*\{?\s*\\circ\s*\}?/g, ''],
  [/°/g, ''],
  [/\\[dtc]frac/g, '\\frac'],
];

/** Strips what does not change an answer: math delimiters, \boxed, \text and friends, emphasis, spacing, degrees. */
export function unwrap(raw: string): string {
  let out = spellCharacters(raw).trim();
  for (let pass = 0; pass < MAX_UNWRAP_PASSES; pass++) {
    const before = out;
    out = dropInnerDollars(stripDollars(stripEmphasis(out)));
    out = stripBox(out);
    for (const [re, to] of UNWRAP_STEPS) out = out.replace(re, to);
    out = trimEndPunctuation(out).trim();
    if (out === before) break;
  }
  return out;
}
