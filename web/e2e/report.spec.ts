import { expect, lessonAppReady, shot, signUp, test } from './fixtures';

test('reporting an issue on a lesson block through the dialog', async ({ page, watch }) => {
  void watch;
  const email = await signUp(page, 'reporter');
  void email;
  await page.goto('/lessons/embedding-dimension');
  // The first answer draws the button too; it opens the dialog once the app has taken over.
  await lessonAppReady(page);
  const open = page.getByRole('button', { name: 'Report an issue' });
  await open.click();
  const dialog = page.getByRole('dialog', { name: 'Report an issue' });
  await expect(dialog).toBeVisible();
  // Escape closes it and gives focus back.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(open).toBeFocused();

  await open.click();
  await dialog.getByLabel('Typo').check();
  await dialog.getByLabel('Where (optional)').selectOption({ label: '7. Table: Width and depth of some well-known models' });
  await dialog.getByLabel('Details').fill('GPT-2 is listed with 117M parameters; the released weights count about 124M.');
  await shot(page, '14-report-dialog');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Thanks — your report was sent.')).toBeVisible();
  await shot(page, '15-report-sent');

  const reports = await page.evaluate(async () => (await fetch('/api/v1/me/reports/')).json());
  expect(reports.results[0]).toMatchObject({ lesson: 'embedding-dimension', kind: 'typo', status: 'new' });
  expect(reports.results[0].block).not.toBeNull();
});

test('a signed-out visitor can report too', async ({ page, watch }) => {
  void watch;
  await page.goto('/lessons/embedding-dimension');
  await lessonAppReady(page);
  await page.getByRole('button', { name: 'Report an issue' }).click();
  const dialog = page.getByRole('dialog', { name: 'Report an issue' });
  await dialog.getByLabel('Unclear').check();
  await dialog.getByLabel('Details').fill('The callout could say which models share the embedding matrix.');
  await dialog.getByLabel(/Your e-mail/).fill('visitor@example.com');
  await dialog.getByRole('button', { name: 'Send report' }).click();
  await expect(page.getByText('Thanks — your report was sent.')).toBeVisible();
  await shot(page, '16-report-sent-signed-out');
});
