/**
 * The answer rules' hand-written cases, part two: answers the equality rule must call equal or different (the
 * rule votes use), gold keys, verdicts against gold, and how a question's answers group for its vote. Each value
 * is what a grader expects, written here, not computed (answers_golden.ts checks the app against them).
 */

/** Answers that must not be equal (so they never share a key either). */
export const DIFFERENT: Array<[string, string]> = [
  ['56/3', '3'],
  ['-40', '40'],
  ['0.75', '4'],
  ['1/2', '2'],
  ['(1,2)', '(2,1)'],
  ['(1,2)', '[1,2]'],
  ['(1,2)', '1,2'],
  ['5,6', '56'],
  ['0.33', '1/3'],
  ['1.001', '1'],
  ['0.999', '1'],
  ['x', 'X'],
  ['3x', '3'],
  ['\\sqrt{2}', '2'],
  ['2\\sqrt{3}', '\\sqrt{6}'],
  ['\\pi', '3.14'],
  ['1/2x', '1/(2x)'],
  ['10', '1'],
  ['-0.5', '0.5'],
  ['1e3', '1e4'],
  ['3x + 2y = 0', 'x - y = 0'],
  ['3x + 2y = 0', '0'],
  // Issue 44: the outside review's different answers that shared a key, and answers too equal by their last number.
  ['x = 1, y = 2', 'x = 2, y = 1'],
  ['2\\frac{5}{3}', '25/3'],
  ['$2.5 million', '2.5'],
  ['$50k', '50'],
  ['1 million', '1'],
  ['5 squared', '5'],
  ['The total is 2 1/2 cups', '0.5'],
  ['2\\frac{1}{2} miles', '0.5'],
  ['3 3/4', '0.75'],
  ['-[0,1)', '1'],
  ['\\frac{1+\\sqrt{5}}{2}', '2'],
  ['32, 349', '32349'],
  ['x < 1', 'x > -1'],
  ['x > 5', 'x < 5'],
  ['x \\geq 5', 'x \\leq 5'],
  ['\\sqrt{2}', '1.414'],
  ['d', '\\text{E}'],
  ['(3,1)', '(1,3)'],
  ['[0,9)', '[0,1)'],
  ['(0,9)', '[0,9)'],
  ['7 = 11a+c', '11a+c'],
  ['2x + z = 1', '1'],
  ['a^2 + b = 0', '0'],
  ['4', '4\\sqrt{2}'],
  ['x+2n+1', 'x+1'],
  ['\\pm 2021', '2021'],
  ['12:00', '1:00'],
  ['3 hours and 20 minutes', '20 hours and 3 minutes'],
  ['(a+5)(b+2)', '(+5)(b+2)'],
  ['4', '\\frac{34}{16}+\\frac{\\sqrt{1358}}{16}'],
  ['1\\sqrt{19}', '1'],
  ['n=2, 3, 4', 'n=1, 2, 3'],
  ['\\begin{pmatrix}1 & 2 \\\\ 3 & 4\\end{pmatrix}', '\\begin{pmatrix}1 & 2 \\\\ 3 & 5\\end{pmatrix}'],
  ['D = (0, 1)', 'D = (0, 1.5)'],
  ['\\sin x', '\\cos x'],
  ['e^x', 'x^e'],
  ['x^2', 'x^3'],
  ['\\ln x', 'x - 1'],
];

/** Answers the rule calls equal, though written so that their keys may differ. */
export const EQUAL: string[][] = [
  // Expressions by value at fixed points.
  ['\\frac{x}{7}+\\frac{2}{7}', '\\frac{x+2}{7}', 'x/7 + 2/7'],
  ['\\tan^2(y)+1', '\\sec^2(y)', '\\frac{1}{\\cos^2(y)}'],
  ['y = 2x + 1', '2x+1'],
  ['\\sqrt{8}', '2\\sqrt{2}', '2 \\sqrt 2'],
  ['\\frac{1+\\sqrt{5}}{2}', '\\frac{2}{\\sqrt{5}-1}'],
  ['\\frac{1}{\\sqrt{6}}', '\\frac{\\sqrt{6}}{6}'],
  ['\\sqrt{17}', '4.123105625617661'],
  ['(x+1)^2', 'x^2+2x+1'],
  ['\\frac{\\sqrt{\\sqrt{11}+\\sqrt{194}}}{15+2\\sqrt{33}}', '\\frac{\\sqrt{\\sqrt{11}+\\sqrt{194}}}{2\\sqrt{33}+15}'],
  ['2 \\sin b \\cos a', '2\\cos(a)\\sin(b)'],
  ['\\frac{9}{4}\\pi', '\\frac94\\pi', '2.25\\pi'],
  ['\\frac{\\pi r}{h+r}', '\\frac{r\\pi}{r+h}'],
  ['x_{1}=10^{\\frac{-5+\\sqrt{13}}{6}}, x_{2}=10^{\\frac{-5-\\sqrt{13}}{6}}', '10^{\\frac{\\sqrt{13} - 5}{6}}, 10^{-\\frac{5 + \\sqrt{13}}{6}}'],
  // Relations: lhs − rhs proportional (by a positive factor for inequalities).
  ['34x+45y-20z+100=0', '-34x-45y+20z-100=0'],
  ['2x+4y-3=0', 'y=-\\frac{1}{2}x+\\frac{3}{4}'],
  ['x^2/4 + y^2/3 = 1', 'x^2/16 + y^2/12 = 1/4'],
  ['x < 1', '-x > -1', '1 > x'],
  // Named tuples by name, or by their values against an unnamed list; sets, ±, matrices and unions.
  ['AB=4,CD=5', '4, 5'],
  ['x = -5,\\ p = \\frac{14}{3}', '-5, \\frac{14}{3}'],
  ['a=4,\\,-8,\\,-10', '-10,-8,4'],
  ['k = 45, n = 2', 'n=2, k=45'],
  ['a_3 = 2, a_{37} = 19', 'a_{37} = 19, \\quad a_3 = 2'],
  ['\\{1\\pm\\sqrt{5},-2\\}', '-2, 1+\\sqrt{5}, 1-\\sqrt{5}'],
  ['\\begin{pmatrix}\\frac{1}{2} & \\frac{3}{4}\\end{pmatrix}', '\\begin{bmatrix}0.5 & 0.75\\end{bmatrix}'],
  ['[-1, -\\frac{1}{2}) \\cup (-\\frac{1}{2}, 0)', '(-\\tfrac12, 0) \\cup [-1, -\\tfrac12)'],
  ['(1, +\\infty)', '(1,\\infty)'],
];

/** [gold answer, its key]: a bare answer as it is, a worked solution (or a long text) by its final answer. */
export const GOLD: Array<[string, string | null]> = [
  ['18', '18'],
  ['Janet sells 16 - 3 - 4 = 9 eggs.\nShe makes 9 * 2 = $18.\n#### 18', '18'],
  ['\\frac{3}{4}', '0.75'],
  ['So the area is $\\boxed{\\frac{\\pi}{2}}$.', '\\pi/2'],
  ['1,000', '1000'],
  ['-40', '-40'],
  ['', null],
  ['$1$ and $2$ and $3$', '1,2,3'],
  ['\\(\\boxed{6 \\text{ and } 8}\\)', '6,8'],
  ['$$\\boxed{2}, \\boxed{3}, \\boxed{5}$$', '2,3,5'],
  [`${'The stock loses $10 \\%$ on Monday and $20 \\%$ on Tuesday. '.repeat(4)}Final Answer: The final answer is $28 \\%$. I hope it is correct.`, '28'],
];

/** [the candidate's `answer` field, its text, the gold answer, whether the candidate gives the gold answer]. */
export const MATCHES: Array<[string | null, string, string, boolean | null]> = [
  [null, 'So the solutions are \\boxed{1} and \\boxed{2}.', '\\{1, 2\\}', true],
  [null, 'The domain is $[0,1)$', '[0,1)', true],
  [null, 'The domain is $-[0,1)$', '1', false],
  [null, 'The ratio is $\\frac{1+\\sqrt{5}}{2}$', '2', false],
  [null, 'The answer is $\\frac{x}{7}+\\frac{2}{7}$.', '\\frac{x+2}{7}', true],
  [null, '#### 18', 'She makes $18.\n#### 18', true],
  [null, 'nothing to read', '18', false],
  ['x = 2, y = 1', 'x = 1, y = 2', 'x = 1, y = 2', false],
  ['$2.5 million', 'g', '2500000', true],
  ['\\sec^2(y)', '', '\\tan^2(y)+1', true],
  ['–0.5', '', '-\\frac12', true],
  ['18', 'A: 18', '  ', null],
  ['b', '', '(B)', true],
  ['3 or -2', '', 'x=3 or x=-2', true],
];

/** A question's answers and, for each, the first of them it votes with (its class), -1 without an answer. */
export const CLASSES: Array<[Array<string | null>, number[]]> = [
  [
    ['\\frac{x+2}{7}', '\\frac{x}{7}+\\frac{2}{7}', 'x+2', null, '(x+2)/7'],
    [0, 0, 2, -1, 0],
  ],
  [
    ['x = 1, y = 2', 'x = 2, y = 1', 'y = 2, x = 1'],
    [0, 1, 0],
  ],
  [
    ['10^6', '1000000', '1 million', '10^5'],
    [0, 0, 0, 3],
  ],
  [
    ['3 or -2', 'x=3 or x=-2', '\\{-2, 3\\}', '3'],
    [0, 0, 0, 3],
  ],
  [
    ['\\tan^2(y)+1', '\\sec^2(y)', '\\tan^2(y)'],
    [0, 0, 2],
  ],
  [
    ['18', '$18.00', '18 eggs', '"18"', '17'],
    [0, 0, 0, 0, 4],
  ],
  [
    ['y=-\\frac{1}{2}x+\\frac{3}{4}', '2x+4y-3=0', '4y = 3 - 2x'],
    [0, 0, 0],
  ],
];
