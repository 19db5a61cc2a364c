// Issue 22 as a learner meets it, at 1280 and at 375 px: the exercise after a reload, nothing
// wider than a phone's screen, the report dialog, comments, settings, and an unknown lesson.
import type { Locator, Page } from '@playwright/test';
import { expect, lessonAppReady, shot, signUp, test } from './fixtures';

const LESSON = '/lessons/embedding-dimension';
const HEADER = 'model,d_model,n_layers,n_heads,vocab_size,intermediate_size';
const LLAMA = 'Meta-Llama-3-8B,4096,32,32,128256,14336';
const MISTRAL = 'Mistral-7B-v0.1,4096,32,32,32000,14336';
// GPT-2's config has no n_inner: copied faithfully, the last cell is empty.
const FAITHFUL = [HEADER, 'GPT-2,768,12,12,50257,', LLAMA, MISTRAL].join('\n');
const WRONG = [HEADER, 'GPT-2,768,13,13,50000,', LLAMA, 'Mistral-7B-v0.1,4000,30,30,32000,'].join('\n');

/** No page is wider than the screen: what is wide scrolls inside its own box. */
async function fitsTheScreen(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${what}: document wider than the ${page.viewportSize()?.width} px viewport`).toBeLessThanOrEqual(0);
}

async function step(page: Page, width: number, name: string) {
  if (width <= 480) await fitsTheScreen(page, name);
  await shot(page, `i22-${width}-${name}`);
}

function exercisePanel(page: Page): Locator {
  return page.getByRole('region', { name: /Exercise: Read d_model/ });
}

async function submitTable(page: Page, table: string) {
  const exercise = exercisePanel(page);
  await exercise.getByLabel('Your table', { exact: true }).fill(table);
  await exercise.getByRole('button', { name: 'Submit' }).click();
  await expect(exercise.getByText('grading…')).toBeHidden({ timeout: 30_000 });
  await expect(exercise.getByRole('heading', { name: /Your latest attempt/ })).toBeVisible({ timeout: 30_000 });
}

for (const width of [1280, 375]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width === 375 ? 667 : 800 }, timezoneId: 'Europe/Paris' });

    test('the exercise: feedback and history survive a reload, one status line, limits and errors beside the box', async ({ page, watch }) => {
      test.setTimeout(120_000);
      watch.allow(/400 .*\/api\/v1\/exercises\/\d+\/submissions\//);
      await signUp(page, `exercise-${width}`);
      await page.goto(LESSON);
      const exercise = exercisePanel(page);
      const status = exercise.getByTestId('exercise-status');
      await expect(status).toHaveText('Not attempted yet · pass mark 80%');
      // The limits are stated beside the box; Submit says why it waits.
      await expect(exercise.getByText('At most 200 rows and 64 KiB.', { exact: false })).toBeVisible();
      await expect(exercise.getByRole('button', { name: 'Submit' })).toBeDisabled();
      await expect(exercise.getByText('Paste your table to submit it.')).toBeVisible();

      // GPT-2 as its config has it: intermediate_size empty, and the column's hint says why.
      await submitTable(page, FAITHFUL);
      const feedback = exercise.getByRole('table', { name: /checked cells correct/ });
      await expect(feedback.locator('td[data-verdict="missing"]')).toHaveCount(1);
      await expect(exercise.getByRole('list', { name: 'Hints for the columns you missed' })).toContainText('Hint for intermediate_size: A config without this figure');
      await expect(status).toHaveText(/^Passed · latest attempt \d+%$/);
      if (width <= 480) {
        // The feedback table scrolls inside its box instead of pushing the page sideways.
        const box = exercise.getByRole('region', { name: 'Feedback per cell' });
        const sizes = await box.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
        expect(sizes.scroll).toBeGreaterThan(sizes.client);
      }
      await step(page, width, 'exercise-1-graded-with-hint');

      // A worse attempt after the pass: one line tells them apart.
      await submitTable(page, WRONG);
      await expect(status).toHaveText(/^Passed earlier \(best \d+%\) · latest attempt \d+%, below the pass mark \(80%\)$/);
      await expect(exercise.getByText('You have passed')).toHaveCount(0);
      await expect(exercise.getByText(/^Not passed yet/)).toHaveCount(0);
      await step(page, width, 'exercise-2-pass-then-worse-attempt');

      // After a reload: the same table in the box, its feedback, the status and the history.
      await page.reload();
      // The exercise's panel loads once the page is idle: later on a busy machine.
      await expect(status).toHaveText(/^Passed earlier \(best \d+%\) · latest attempt \d+%/, { timeout: 30_000 });
      await expect(exercise.getByLabel('Your table', { exact: true })).toHaveValue(WRONG);
      await expect(exercise.getByRole('table', { name: /checked cells correct/ }).locator('td[data-verdict="incorrect"]').first()).toBeVisible();
      await exercise.getByText('Your attempts (2)').click();
      const attempts = exercise.locator('.attempt-history li');
      await expect(attempts).toHaveCount(2);
      await expect(attempts.nth(0)).toContainText('not passed');
      await expect(attempts.nth(1)).toContainText('· passed');
      await attempts.nth(1).getByRole('button', { name: 'Show feedback' }).click();
      await expect(attempts.nth(1).getByRole('table', { name: /checked cells correct/ })).toBeVisible();
      await step(page, width, 'exercise-3-after-reload-with-history');

      // Over the row limit: said once, beside the box, before anything is sent.
      const box = exercise.getByLabel('Your table', { exact: true });
      await box.fill([HEADER, ...Array.from({ length: 201 }, (_, index) => `model-${index},1,1,1,1,1`)].join('\n'));
      await expect(exercise.getByText('The table has 201 rows under the header; at most 200 are accepted.')).toHaveCount(1);
      await expect(exercise.getByRole('button', { name: 'Submit' })).toBeDisabled();
      await expect(exercise.getByText('Fix the problem above to submit.')).toBeVisible();
      await step(page, width, 'exercise-4-over-the-row-limit');

      // A Markdown table with a bad separator row: the line is named, and the message goes with the table.
      await box.fill('| model | d_model |\n|---|---|---|\n| GPT-2 | 768 |');
      await exercise.getByLabel('Format').selectOption('markdown');
      await exercise.getByRole('button', { name: 'Submit' }).click();
      await expect(exercise.getByText(/^Line 2 is the separator row under the header: it has 3 cells/)).toBeVisible();
      await step(page, width, 'exercise-5-parse-error-names-the-line');
      await box.fill('');
      await expect(exercise.getByText(/separator row/)).toHaveCount(0);
      await expect(exercise.getByText('Paste your table to submit it.')).toBeVisible();
      await step(page, width, 'exercise-6-error-cleared-with-the-table');
    });

    test('the report dialog: every part of the lesson, from the part itself, labelled as shown', async ({ page, watch }) => {
      void watch;
      await signUp(page, `report-${width}`);
      await page.goto(LESSON);
      await lessonAppReady(page);
      const table = page.locator('.lesson-part').filter({ has: page.getByRole('region', { name: 'Width and depth of some well-known models' }) });
      await table.getByRole('button', { name: 'Report this table' }).click();
      const dialog = page.getByRole('dialog', { name: 'Report an issue' });
      const where = dialog.getByLabel('Where (optional)');
      // The seventh block: two texts, a check, a text and two checks come before it.
      await expect(where.locator('option:checked')).toHaveText('7. Table: Width and depth of some well-known models');
      const options = await where.locator('option').allTextContents();
      expect(options.find((option) => option.startsWith('3. Question:'))).toContain('Llama 3 8B has d_model = 4,096');
      expect(options).toContain('Further reading (the links)');
      expect(options).toContain('Exercise: Read d_model from three config.json files');
      expect(options.find((option) => option.startsWith('1. Text:'))).toContain('d_model, also called the hidden size');
      // Required fields are marked; Send says why it waits.
      await expect(dialog.getByText('Details (required)')).toBeVisible();
      await expect(dialog.getByRole('button', { name: 'Send report' })).toBeDisabled();
      await expect(dialog.getByText('Describe the problem to send the report.')).toBeVisible();
      await step(page, width, 'report-1-from-the-table');
      await dialog.getByLabel('Typo').check();
      await dialog.getByLabel(/^Details/).fill('GPT-2 is listed with 117M parameters; the released weights count about 124M.');
      await dialog.getByRole('button', { name: 'Send report' }).click();
      await expect(page.getByText('Thanks — your report was sent.')).toBeVisible();

      await page.getByRole('region', { name: 'Further reading' }).getByRole('button', { name: 'Report these links' }).click();
      await expect(where.locator('option:checked')).toHaveText('Further reading (the links)');
      await dialog.getByLabel('Broken link').check();
      await dialog.getByLabel(/^Details/).fill('The Llama 3 link answers 404.');
      await step(page, width, 'report-2-from-the-links');
      await dialog.getByRole('button', { name: 'Send report' }).click();
      await expect(page.getByText('Thanks — your report was sent.')).toHaveCount(1);

      await page.locator('.lesson-part').filter({ has: exercisePanel(page) }).getByRole('button', { name: 'Report this exercise' }).click();
      await expect(where.locator('option:checked')).toHaveText('Exercise: Read d_model from three config.json files');
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      const reports = await page.evaluate(async () => (await fetch('/api/v1/me/reports/')).json());
      const sent = reports.results.map((report: { kind: string; block: number | null; message: string }) => [report.kind, report.block === null, report.message.slice(0, 30)]);
      expect(sent.sort()).toEqual([
        ['broken_link', true, '[Further reading (the links)] '],
        ['typo', false, 'GPT-2 is listed with 117M para'],
      ]);
    });

    test('comments: focus in the editor, the app’s own delete dialog, a counter, dir=auto', async ({ page, watch }) => {
      void watch;
      await signUp(page, `comments-${width}`);
      await page.goto(LESSON);
      const comments = page.getByRole('region', { name: 'Comments' });
      const editor = comments.getByLabel('Add a comment');
      await expect(editor).toHaveAttribute('dir', 'auto');
      await expect(comments.getByText('0/5,000 characters')).toBeVisible();
      const body = `ما هو بعد التضمين؟ ${Date.now()}`;
      await editor.fill(body);
      await expect(comments.getByText(`${body.length}/5,000 characters`)).toBeVisible();
      await comments.getByRole('button', { name: 'Post comment' }).click();
      const posted = comments.getByRole('article').filter({ has: page.locator('.prose', { hasText: body }) });
      await expect(posted.locator('.prose')).toHaveAttribute('dir', 'auto');
      // By id: while it is edited, its text is in the editor rather than on the page.
      const mine = page.locator(`#${await posted.getAttribute('id')}`);
      // Right-to-left text reads right to left.
      expect(await mine.locator('.prose p').evaluate((element) => getComputedStyle(element).direction)).toBe('rtl');

      await mine.getByRole('button', { name: 'Edit' }).click();
      const edit = mine.getByLabel('Edit your comment');
      await expect(edit).toBeFocused();
      await edit.fill('x'.repeat(5001));
      await expect(mine.getByText('5,001 of at most 5,000 characters: remove 1.')).toBeVisible();
      await expect(mine.getByRole('button', { name: 'Save' })).toBeDisabled();
      await step(page, width, 'comments-1-editing-over-the-limit');
      await mine.getByRole('button', { name: 'Cancel' }).click();

      await mine.getByRole('button', { name: 'Delete' }).click();
      const confirm = page.getByRole('dialog', { name: 'Delete this comment?' });
      await expect(confirm.getByRole('button', { name: 'Keep it' })).toBeVisible();
      await step(page, width, 'comments-2-delete-asks-in-the-app');
      await confirm.getByRole('button', { name: 'Keep it' }).click();
      await expect(confirm).toBeHidden();
      await expect(mine).toBeVisible();
      await mine.getByRole('button', { name: 'Delete' }).click();
      await confirm.getByRole('button', { name: 'Delete comment' }).click();
      await expect(comments.getByRole('article').filter({ has: page.locator('.prose', { hasText: body }) })).toHaveCount(0);
    });

    test('settings: the name others see, one error, no silent cut, one toast, the browser’s zone, named devices', async ({ page, watch }) => {
      watch.allow(/400 .*\/api\/v1\/me\//);
      await signUp(page, `settings-${width}`);
      await page.goto('/settings');
      const name = page.getByLabel('Display name');
      const handle = await name.getAttribute('placeholder');
      expect(handle).toMatch(/^Learner \d{6}$/);
      await expect(page.getByText(`Empty: others see you as “${handle}”.`)).toBeVisible();
      // A new account starts in the browser's zone (this context's: Europe/Paris).
      await expect(page.getByLabel('Time zone')).toHaveValue('Europe/Paris');

      await name.fill('N'.repeat(200));
      await expect(name).toHaveValue('N'.repeat(200));
      await expect(page.getByText('200 of at most 60 characters: remove 140.')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Save settings' })).toBeDisabled();
      await expect(page.getByText('Shorten the display name to save.')).toBeVisible();
      await step(page, width, 'settings-1-name-too-long');

      await name.fill('Learner 123456');
      await page.getByRole('button', { name: 'Save settings' }).click();
      const error = page.getByText(/cannot look like the "Learner 123456" handles/);
      await expect(error).toHaveCount(1);
      await expect(page.getByText(/display_name/)).toHaveCount(0);
      await step(page, width, 'settings-2-one-error-for-people');

      const chosen = `Ada ${width} ${Date.now().toString(36)}`;
      await name.fill(chosen);
      const search = page.getByLabel('Find a zone by city or region');
      await search.fill('kolkata');
      const zone = page.getByLabel('Time zone');
      const offered = await zone.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
      expect(offered).toContain('Asia/Kolkata');
      expect(offered).not.toContain('Asia/Calcutta');
      await zone.selectOption('Asia/Kolkata');
      await search.fill('');
      const all = await zone.locator('option').evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
      for (const legacy of ['Africa/Asmera', 'Asia/Calcutta', 'Asia/Saigon', 'Europe/Kiev']) expect(all).not.toContain(legacy);
      for (let save = 0; save < 4; save += 1) {
        await page.getByRole('button', { name: 'Save settings' }).click();
        await expect(page.getByRole('button', { name: 'Save settings' })).toBeEnabled();
      }
      await expect(page.getByText('Settings saved')).toHaveCount(1);

      // Devices by name, times in the learner's zone (Kolkata, not the browser's Paris).
      const device = page.getByRole('region', { name: 'Signed-in devices' }).locator('li').first();
      // Playwright's desktop Chrome says Windows in its User-Agent.
      await expect(device.locator('strong')).toHaveText(/^Chrome on (Windows|Linux)$/);
      const shown = await device.locator('p.muted').textContent();
      const expected = await page.evaluate(async () => {
        const sessions = await (await fetch('/_allauth/browser/v1/auth/sessions')).json();
        const format = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Kolkata' });
        return format.format(new Date(sessions.data[0].created_at * 1000));
      });
      expect(shown).toContain(`signed in ${expected}`);
      await step(page, width, 'settings-3-saved-devices-named');
      await page.reload();
      await expect(page.getByLabel('Display name')).toHaveValue(chosen);
      await expect(page.getByLabel('Time zone')).toHaveValue('Asia/Kolkata');
    });

    test('an unknown lesson is a not-found page with the way home', async ({ page, watch }) => {
      watch.allow(/404 .*\/lessons\/no-such-lesson/); // the page and its API read
      await page.goto('/lessons/no-such-lesson');
      await expect(page.getByRole('heading', { name: 'This lesson does not exist' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
      await step(page, width, 'not-found-lesson');
      await page.getByRole('link', { name: 'Go to the quests' }).click();
      await expect(page).toHaveURL(/\/$/);
    });
  });
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 667 } });

  test('every page fits the screen, and the lesson title is on the first screen', async ({ page, watch }) => {
    watch.allow(/404 .*\/lessons\/no-such-lesson/); // the page and its API read
    const pages = ['/', '/quests/transformers', LESSON, '/achievements', '/leaderboard', '/signin', '/signup', '/lessons/no-such-lesson', '/no-such-page'];
    const titleOnFirstScreen = async (who: string) => {
      await page.goto(LESSON);
      const title = page.getByRole('heading', { level: 1, name: 'Embedding dimension (d_model)' });
      await expect(title).toBeVisible();
      const bottom = await title.evaluate((element) => element.getBoundingClientRect().bottom);
      expect(bottom, `${who}: the lesson title ends ${bottom} px down a 667 px screen`).toBeLessThanOrEqual(667);
      await shot(page, `i22-375-lesson-first-screen-${who}`);
    };
    await titleOnFirstScreen('signed-out');
    for (const path of pages) {
      await page.goto(path);
      await expect(page.locator('main h1')).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
      await fitsTheScreen(page, `${path} signed out`);
    }
    await signUp(page, 'phone');
    await titleOnFirstScreen('signed-in');
    for (const path of [...pages, '/notifications', '/settings']) {
      await page.goto(path);
      await expect(page.locator('main h1')).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /Loading/ })).toHaveCount(0);
      await fitsTheScreen(page, `${path} signed in`);
    }
  });
});
