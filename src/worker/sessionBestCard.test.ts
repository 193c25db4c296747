/**
 * The best checkpoint was chosen by its validation figures, so those figures are optimistic (issue 31,
 * point 7): its model card says so beside them, and reports the loaded test set's figures, which did not
 * choose it, evaluating the test set for the card when nothing had yet.
 */
import * as tf from '@tensorflow/tfjs';
import { beforeAll, expect, it } from 'vitest';
import { file, harness, sampleLines, tinySettings } from './testing/sessionHarness.ts';

beforeAll(async () => {
  await tf.setBackend('cpu');
});

it('the best checkpoint’s card says its validation figures are optimistic and reports the test set’s', async () => {
  const h = harness();
  await h.run({ type: 'loadData', role: 'train', source: file(sampleLines(0, 48)) });
  await h.run({ type: 'loadData', role: 'test', source: file(sampleLines(48, 96), 'test.jsonl') });
  await h.run({ type: 'start', settings: tinySettings({ epochs: 1, groupsPerStep: 4 }) });
  await h.runEnd();
  await h.run({ type: 'selectModel', slot: 'best' });
  await h.run({ type: 'evaluate', set: 'val' });
  expect(h.last('evaluation')!.report.heldOut).toMatchObject({ source: 'model', chosenOnValidation: true });
  // The test set was never evaluated: the card evaluates it.
  expect(h.all('evaluation').some((e) => e.report.set === 'test')).toBe(false);
  await h.run({ type: 'export' });
  const card = new TextDecoder().decode(h.all('exported').find((e) => e.what === 'card')!.bytes);
  const val = card.slice(card.indexOf('## Selection rules: validation'), card.indexOf('## Selection rules: test'));
  expect(val).toMatch(/chosen as the best by its validation figures on these questions, so they are optimistic/);
  expect(card).toMatch(/## Selection rules: test \(\d+ groups of test\.jsonl\)/);
  expect(card).toMatch(/- The best checkpoint was chosen by its validation figures, so they are optimistic; the test figures \(test\.jsonl\) are not\./);
});
