import { expect, header, newContextPage, passChecks, shot, signIn, signUp, test } from './fixtures';

test('the same account in a second browser shows the same progress', async ({ page, watch, browser }) => {
  void watch;
  const email = await signUp(page, 'devices');
  await page.goto('/lessons/embedding-geometry');
  await passChecks(page, 'embedding-geometry');
  await expect(header(page).getByText('1/94 lessons')).toBeVisible();
  await page.goto('/lessons/token-embeddings');
  await passChecks(page, 'token-embeddings');
  await expect(header(page).getByText('2/94 lessons')).toBeVisible();
  const firstHeader = await header(page).locator('.progress-stats').innerText();
  await shot(page, '17-first-browser-progress');

  const second = await newContextPage(browser);
  await second.page.goto('/lessons/token-embeddings');
  await expect(header(second.page).getByText('0/94 lessons')).toBeVisible();
  await signIn(second.page, email, '/lessons/token-embeddings');
  await expect(header(second.page).getByText('2/94 lessons')).toBeVisible();
  expect(await header(second.page).locator('.progress-stats').innerText()).toBe(firstHeader);
  await expect(second.page.getByText('✓ Completed')).toBeVisible();
  await shot(second.page, '18-second-browser-same-progress');

  // The first browser lists the second one's session and can end it there.
  await page.goto('/settings');
  const sessions = page.getByRole('region', { name: 'Signed-in devices' });
  await expect(sessions.getByRole('listitem')).toHaveCount(2);
  await shot(page, '19-settings-sessions');
  await sessions.getByRole('button', { name: 'Sign out there' }).click();
  await expect(sessions.getByRole('listitem')).toHaveCount(1);
  await second.page.reload();
  await expect(second.page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
  await second.context.close();
  expect(second.watch.problems).toEqual([]);
});
