import { expect, shot, signUp, test, watchConsole } from './fixtures';

test("a display name that looks like another learner's is refused with a message", async ({ page, newLearnerPage }) => {
  // The refusal is a 400 the page shows on the field; nothing else may fail.
  const watch = watchConsole(page, [/^400 .*\/api\/v1\/me\/$/]);
  const name = `Flush One ${Date.now().toString(36).replace(/[0-9]/g, 'x')}`;
  const first = await newLearnerPage('victim');
  await first.page.goto('/settings');
  await first.page.getByLabel('Display name').fill(name);
  const saved = first.page.waitForResponse((response) => response.url().endsWith('/api/v1/me/') && response.request().method() === 'PATCH');
  await first.page.getByRole('button', { name: 'Save settings' }).click();
  expect((await saved).status()).toBe(200);

  await signUp(page, 'impostor');
  await page.goto('/settings');
  // A Cyrillic capital O (U+041E) for the Latin one.
  await page.getByLabel('Display name').fill(name.replace('One', '\u041Ene'));
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.locator('.field-error', { hasText: 'looks too much like another learner' })).toBeVisible();
  await shot(page, '30-display-name-look-alike-refused');
  expect(watch.problems, 'console errors').toEqual([]);
});
