import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { CSP_HEADER, CSP_META } from '../src/build/csp.ts';
import { collectConsoleErrors, withConfigField } from './helpers.ts';

/** Markup that runs script (or opens a dialog) wherever it reaches the DOM as HTML instead of text. */
const PAYLOADS = [
  '<script>window.__pwned=1</script>',
  '<img src=x onerror="window.__pwned=1">',
  '<a href="javascript:window.__pwned=1">x</a>',
  '<svg onload="window.__pwned=1"></svg>',
  '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>',
  '"><img src=x onerror=alert(1)>',
  '<details open ontoggle="window.__pwned=1">',
];
// Short enough to be quoted whole in a rejected line's message.
const LABEL_PAYLOAD = '<img src=x onerror=alert(1)>';
const DATA_NAME = '<img src=x onerror=alert(1)>.jsonl';
const BROKEN_NAME = '<svg onload=alert(1)>.jsonl';
const MODEL_NAME = '<img src=y onerror=alert(2)>.safetensors';
const CONFIG_KEY = '<svg onload=alert(3)>';

/** Groups whose question, answers and final answers all carry markup; plus two bad lines whose messages quote them. */
function hostileJsonl(groups: number): string {
  const lines: string[] = [];
  for (let g = 0; g < groups; g++) {
    const question = `Q${g} ${PAYLOADS[g % PAYLOADS.length]} What is ${g} + 2?`;
    for (let c = 0; c < 4; c++) {
      const value = c % 2 === 0 ? g + 2 : g + 3;
      const gen_text = `${PAYLOADS[(g + c) % PAYLOADS.length]} so it is ${value}.`;
      lines.push(
        JSON.stringify({
          question,
          question_id: `q${g}${PAYLOADS[g % PAYLOADS.length]}`,
          gen_text,
          answer: `${value}${PAYLOADS[c]}`,
          label: c % 2 === 0 ? 1 : 0,
        }),
      );
    }
  }
  lines.push(PAYLOADS[0]); // invalid JSON
  lines.push(JSON.stringify({ question: 'q', gen_text: 'x', label: LABEL_PAYLOAD })); // bad label
  return `${lines.join('\n')}\n`;
}

/** True when some payload shows up literally in the text. */
const hasPayload = (text: string): boolean => PAYLOADS.some((p) => text.includes(p));

/** Nothing parsed as HTML: no element only a payload would create, no payload's script ran, no dialog opened. */
async function expectInert(page: Page, dialogs: string[]): Promise<void> {
  const injected = await page.evaluate(
    () =>
      document.querySelectorAll('[onerror], [onload], [ontoggle], iframe[srcdoc], a[href^="javascript:" i], img[src="x"], img[src="y"]').length +
      [...document.scripts].filter((s) => s.text.includes('__pwned')).length,
  );
  expect(injected, 'elements created from markup').toBe(0);
  expect(await page.evaluate(() => (window as { __pwned?: unknown }).__pwned)).toBeUndefined();
  expect(dialogs).toEqual([]);
}

// The tests serve the built app, whose Content-Security-Policy would stop an injected script by itself:
// bypassed here, so that only the app's rendering of markup as text keeps the payloads inert.
test.describe(() => {
  test.use({ bypassCSP: true });

  test('markup in data, file names, messages, model files and pasted text renders as text: no script runs, no dialog opens', async ({ page }) => {
    const errors = collectConsoleErrors(page);
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    // WASM: the run only has to produce a model, and a software WebGPU adapter would make it slow.
    await page.goto('/?backend=wasm');
    await expect(page.getByTestId('backend')).toHaveAttribute('data-backend', /^(webgpu|wasm|cpu)$/, { timeout: 60_000 });

    // Data panel: the file name, and rejected lines that quote the markup.
    await page.getByTestId('dataset-input').setInputFiles({ name: DATA_NAME, mimeType: 'application/x-ndjson', buffer: Buffer.from(hostileJsonl(10)) });
    const summary = page.getByTestId('dataset-summary');
    await expect(summary).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
    await expect(summary).toHaveAttribute('data-groups', '10');
    await expect(summary).toHaveAttribute('data-rejected', '2');
    await expectInert(page, dialogs);
    await expect(summary).toContainText(DATA_NAME);
    await expect(summary).toContainText(LABEL_PAYLOAD);

    // Error banner: a file with no valid line, named with markup and holding markup.
    await page.getByTestId('dataset-input').setInputFiles({ name: BROKEN_NAME, mimeType: 'application/x-ndjson', buffer: Buffer.from(`${PAYLOADS[1]}\n`) });
    await expect(page.getByTestId('error-banner')).toContainText(`${BROKEN_NAME}: No valid line`);
    await expectInert(page, dialogs);

    // A very short run so that Inspect has a model.
    await page.getByTestId('preset').selectOption('tiny');
    await page.getByTestId('cfg-max-len').fill('32');
    await page.getByTestId('cfg-epochs').fill('1');
    await page.getByTestId('train-start').click();
    await expect(page.getByTestId('train-status')).toHaveAttribute('data-state', 'done', { timeout: 4 * 60_000 });

    // Inspect: the group's question and every candidate text, as text.
    await page.getByTestId('inspect-show').click();
    const inspected = page.getByTestId('inspect-candidate');
    await expect(inspected).toHaveCount(4, { timeout: 60_000 });
    await expectInert(page, dialogs);
    expect(hasPayload((await page.locator('[data-testid="inspect-view"] .question').textContent()) ?? '')).toBe(true);
    for (const text of await inspected.allTextContents()) expect(hasPayload(text), text).toBe(true);

    // Rerank: a pasted question and answers.
    await page.getByTestId('rerank-question').fill(`${PAYLOADS[0]} Which is right?`);
    await page.getByTestId('rerank-candidates').fill(PAYLOADS.slice(1, 4).join('\n---\n'));
    await page.getByTestId('rerank-run').click();
    await expect(page.getByTestId('ranked-candidate')).toHaveCount(3, { timeout: 60_000 });
    await expectInert(page, dialogs);
    for (const p of PAYLOADS.slice(1, 4)) await expect(page.getByTestId('rerank-result')).toContainText(p);

    // Log and model panel: the exported weights imported again under a markup name, with a markup config field.
    // The weights come with a model card (.md): take the weights.
    const download = page.waitForEvent('download', (d) => d.suggestedFilename().endsWith('.safetensors'));
    await page.getByTestId('export-weights').click();
    const exported = readFileSync((await (await download).path())!);
    await page
      .getByTestId('import-weights')
      .setInputFiles({ name: MODEL_NAME, mimeType: 'application/octet-stream', buffer: withConfigField(exported, CONFIG_KEY, 1) });
    const modelInfo = page.getByTestId('model-info');
    await expect(modelInfo).toHaveAttribute('data-source', 'imported', { timeout: 60_000 });
    await expectInert(page, dialogs);
    await expect(modelInfo).toContainText(MODEL_NAME);
    await expect(modelInfo).toContainText(CONFIG_KEY);
    const log = page.locator('details.log');
    await log.locator('summary').click();
    await expect(log).toContainText(`${MODEL_NAME}: Ignored config fields this version does not know: ${CONFIG_KEY}`);

    // Once more, after the log opened and every panel rendered its last update.
    await expectInert(page, dialogs);
    expect(errors).toEqual([]);
  });
});

test('the built app runs under its Content-Security-Policy: sample, WASM with threads, a few training steps, no violation', async ({ page }) => {
  const errors = collectConsoleErrors(page);
  // Workers report refusals only as console text (warnings included); the page also as events.
  const refusals: string[] = [];
  page.on('console', (m) => {
    if (/content.security.policy|securitypolicyviolation/i.test(m.text())) refusals.push(m.text());
  });
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (e) => console.warn(`securitypolicyviolation: ${e.violatedDirective} ${e.blockedURI}`)),
  );
  const response = await page.goto('/?backend=wasm');
  expect(response?.headers()['content-security-policy']).toBe(CSP_HEADER);
  // Hosts copy the header from the README: it must be this one.
  expect(readFileSync(new URL('../README.md', import.meta.url), 'utf8')).toContain(`Content-Security-Policy: ${CSP_HEADER}`);
  await expect(page.locator('meta[http-equiv="Content-Security-Policy"]')).toHaveAttribute('content', CSP_META);
  // Isolated: the WASM backend takes its threaded build, whose workers start from blob: URLs.
  expect(await page.evaluate(() => crossOriginIsolated)).toBe(true);
  await expect(page.getByTestId('backend')).toHaveAttribute('data-backend', 'wasm', { timeout: 60_000 });

  await page.getByTestId('load-sample').click();
  await expect(page.getByTestId('dataset-summary')).toHaveAttribute('data-status', 'ready', { timeout: 120_000 });
  await page.getByTestId('preset').selectOption('tiny');
  await page.getByTestId('cfg-max-len').fill('32');
  await page.getByTestId('cfg-epochs').fill('1');
  await page.getByTestId('train-start').click();
  await expect.poll(async () => Number(await page.getByTestId('train-status').getAttribute('data-step')), { timeout: 120_000 }).toBeGreaterThanOrEqual(3);
  await expect(page.getByTestId('chart-loss')).not.toHaveAttribute('data-points', '0');
  await page.getByTestId('train-stop').click();
  expect(refusals).toEqual([]);
  expect(errors).toEqual([]);

  // The policy is in force (else the checks above prove nothing): an injected inline script is refused and reported.
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.text = 'window.__inline = 1';
    document.head.append(s);
    return (window as { __inline?: unknown }).__inline;
  });
  expect(ran).toBeUndefined();
  await expect.poll(() => refusals.length).toBeGreaterThan(0);
});
