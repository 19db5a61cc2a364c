import { expect, shot, signUp, test } from './fixtures';

test('a table with one wrong cell is graded by the worker, that cell flagged and the pass celebrated', async ({ page, watch }) => {
  void watch;
  await signUp(page, 'exercise');
  await page.goto('/lessons/embedding-dimension');
  const exercise = page.getByRole('region', { name: /Exercise: Read d_model/ });
  await expect(exercise).toContainText('Expected columns:');
  await expect(exercise.locator('p', { hasText: 'Expected columns:' })).toContainText('d_model');
  // GPT-2 has 12 layers: 13 is the one wrong cell.
  const table = [
    'model,d_model,n_layers,n_heads,vocab_size,intermediate_size',
    'GPT-2,768,13,12,50257,3072',
    'Meta-Llama-3-8B,4096,32,32,128256,14336',
    'Mistral-7B-v0.1,4096,32,32,32000,14336',
  ].join('\n');
  await exercise.getByLabel('Your table', { exact: true }).fill(table);
  await expect(exercise.getByLabel('Format')).toContainText('Detect automatically (CSV)');
  await shot(page, '07-exercise-table-pasted');
  await exercise.getByRole('button', { name: 'Submit' }).click();
  // The answer is 202 at once and the page polls; "grading…" shows until the worker is done.
  const feedback = exercise.getByRole('table', { name: /checked cells correct/ });
  await expect(feedback).toBeVisible({ timeout: 30_000 });
  const wrong = feedback.locator('td[data-verdict="incorrect"]');
  await expect(wrong).toHaveCount(1);
  await expect(wrong).toContainText('13');
  await expect(feedback.locator('td[data-verdict="correct"]')).toHaveCount(14);
  await expect(exercise.getByTestId('exercise-status')).toHaveText(/latest attempt \d+%/);
  await shot(page, '08-exercise-feedback-one-wrong-cell');

  // 14 of 15 cells is above the pass mark: the page celebrates, in its live region, moving only if allowed.
  const celebration = exercise.getByTestId('exercise-passed');
  await expect(celebration).toHaveText(/^Exercise passed! \+\d+ XP$/);
  await expect(exercise.locator('[aria-live="polite"]').getByTestId('exercise-passed')).toBeVisible();
  // The animation is over by now: its name says whether the star would move.
  const animation = () => celebration.locator('svg').evaluate((star) => getComputedStyle(star).animationName);
  expect(await animation()).toBe('exercise-pop');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await animation()).toBe('none');
  await expect(exercise.getByTestId('exercise-status')).toHaveText(/^Passed · latest attempt \d+%$/);
});
