import type { Browser, Page } from '@playwright/test';
import { django, expect, PASSWORD, shot, test, watchConsole } from './fixtures';

// Issue 39, walked by two content editors in two browsers on one lesson: each sees the other
// has it open; the second save is refused with the first one's change and loses nothing; a
// draft kept in the browser comes back after the tab is gone; leaving with unsaved changes
// asks first; a renamed lesson's old address ends on the new one. The lesson is the spec's own
// draft (learners never see it), deleted at the end: no lesson of content/ is touched.
test.use({ viewport: { width: 1280, height: 1000 } });
test.setTimeout(180_000);

const FIRST = 'e2e-editor-39a@example.com';
const SECOND = 'e2e-editor-39b@example.com';
const SLUG = 'e2e-two-editors';
const RENAMED = 'e2e-two-editors-renamed';

let lessonId = '';

test.beforeAll(() => {
  lessonId = django(`
from django.contrib.auth.models import Group
from accounts.models import User
from lessons.models import Block, Lesson, Quest
for email in ["${FIRST}", "${SECOND}"]:
    editor, _ = User.objects.get_or_create(email=email)
    editor.is_staff = True
    editor.is_superuser = False
    editor.set_password("${PASSWORD}")
    editor.save()
    editor.groups.add(Group.objects.get(name="Content editors"))
Lesson.objects.filter(slug__in=["${SLUG}", "${RENAMED}"]).delete()
lesson = Lesson.objects.create(quest=Quest.objects.get(slug="transformers"), slug="${SLUG}",
    title="Two editors at once", summary="Written by the e2e run.", position=998, published=False)
Block.objects.create(lesson=lesson, kind="prose", position=1, markdown="The first paragraph.\\n")
Block.objects.create(lesson=lesson, kind="prose", position=2, markdown="The second paragraph.\\n")
print(lesson.pk)
`);
});

// The specs share one database: the lesson made here must not change what later specs count.
test.afterAll(() => {
  django(`
from lessons.models import Lesson
Lesson.objects.filter(slug__in=["${SLUG}", "${RENAMED}"]).delete()
`);
});

async function editorPage(browser: Browser, email: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // The admin's pages name no favicon: the browser's own /favicon.ico request is not theirs.
  const watch = watchConsole(page, [/favicon\.ico/]);
  await page.goto('/admin/login/');
  await page.getByLabel('Email address').or(page.getByLabel('E-mail address')).fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.locator('#user-tools')).toBeVisible();
  return { context, page, watch };
}

const firstBlock = (page: Page) => page.locator('#blocks-group .inline-related.has_original').first().locator('textarea.lp-markdown-source');

test('two editors on one lesson: presence, a refused save, a draft kept, an old address', async ({ browser }) => {
  const changeUrl = `/admin/lessons/lesson/${lessonId}/change/`;
  const first = await editorPage(browser, FIRST);
  const second = await editorPage(browser, SECOND);

  // --- Who else has it open: the second editor's page names the first at once; the first's
  // page learns of the second at its next heartbeat (30 s, run ahead on its clock).
  await first.page.clock.install();
  await first.page.goto(changeUrl);
  await first.page.clock.resume();
  await expect(firstBlock(first.page)).toHaveValue(/^The first paragraph\.\n?$/);
  await second.page.goto(changeUrl);
  const secondPresence = second.page.locator('#lp-presence');
  await expect(secondPresence).toBeVisible();
  await expect(secondPresence).toContainText(`Also open by ${FIRST} (seen `);
  await expect(first.page.locator('#lp-presence')).toBeHidden();
  await first.page.clock.fastForward(31_000);
  await expect(first.page.locator('#lp-presence')).toContainText(`Also open by ${SECOND} (seen `);
  await shot(first.page, 'admin-39-01-also-open-by');

  // --- Both edit the first block; the first saves.
  await firstBlock(first.page).fill('The first paragraph, as the first editor rewrote it.');
  await firstBlock(second.page).fill('The first paragraph, as the second editor wants it.');
  await first.page.getByRole('button', { name: 'Save and continue editing' }).click();
  await expect(first.page.locator('.messagelist')).toContainText('was changed successfully');

  // --- The second save is refused: who and when, their change, and my text still in the form.
  await second.page.getByRole('button', { name: 'Save and continue editing' }).click();
  const conflict = second.page.locator('#lp-conflict');
  await expect(conflict).toBeVisible();
  await expect(conflict).toContainText(`Changed by ${FIRST} at `);
  await expect(conflict).toContainText('since you opened it');
  await expect(conflict.locator('ins').first()).toBeVisible();
  await expect(firstBlock(second.page)).toHaveValue('The first paragraph, as the second editor wants it.');
  await conflict.scrollIntoViewIfNeeded();
  await shot(second.page, 'admin-39-02-second-save-refused');
  expect(django(`from lessons.models import Block; print(Block.objects.get(lesson_id=${lessonId}, position=1).markdown.strip())`)).toBe(
    'The first paragraph, as the first editor rewrote it.',
  );

  // --- Leaving with unsaved changes asks first.
  await firstBlock(second.page).fill('Merged: the first editor rewrote it, and the second agrees.');
  await second.page.getByRole('button', { name: 'Add another Block' }).click();
  await second.page.locator('#id_blocks-2-kind').selectOption('prose');
  await second.page.locator('#id_blocks-2-markdown').fill('A third paragraph, added before the tab was lost.');
  const asked = new Promise<string>((resolve) => {
    second.page.once('dialog', (dialog) => {
      resolve(dialog.type());
      void dialog.dismiss();
    });
  });
  await second.page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');
  await expect.poll(() => second.page.isClosed()).toBe(false);

  // --- The tab is gone (a crash): opening the lesson again offers the draft, and restores it.
  await second.page.close();
  const again = await second.context.newPage();
  const againWatch = watchConsole(again, [/favicon\.ico/]);
  await again.goto(changeUrl);
  const offer = again.locator('#lp-draft .lp-draft-offer');
  await expect(offer).toBeVisible();
  await expect(offer).toContainText('This browser kept a draft of this lesson from');
  await expect(firstBlock(again)).toHaveValue(/^The first paragraph, as the first editor rewrote it\.\n?$/);
  await shot(again, 'admin-39-03-draft-offered');
  await again.getByRole('button', { name: 'Restore the draft' }).click();
  await expect(again.locator('#lp-draft .lp-draft-restored')).toBeVisible();
  await expect(firstBlock(again)).toHaveValue('Merged: the first editor rewrote it, and the second agrees.');
  await expect(again.locator('#id_blocks-2-markdown')).toBeVisible();
  await expect(again.locator('#id_blocks-2-markdown')).toHaveValue('A third paragraph, added before the tab was lost.');
  // The previews are drawn from the draft, not from the saved text.
  const previews = again.locator('#blocks-group .lp-markdown-html');
  await expect(previews.first()).toHaveText('Merged: the first editor rewrote it, and the second agrees.');
  await expect(previews.nth(2)).toHaveText('A third paragraph, added before the tab was lost.');
  await shot(again, 'admin-39-04-draft-restored');

  // --- Saving the draft goes through (made after the refusal, from the version it showed) and
  // forgets it: the page opened again offers nothing.
  await again.getByRole('button', { name: 'Save and continue editing' }).click();
  await expect(again.locator('.messagelist')).toContainText('was changed successfully');
  await expect(firstBlock(again)).toHaveValue(/^Merged: the first editor rewrote it, and the second agrees\.\n?$/);
  expect(django(`from lessons.models import Block; print(Block.objects.filter(lesson_id=${lessonId}).count())`)).toBe('3');
  await again.goto(changeUrl);
  await expect(firstBlock(again)).toBeVisible();
  await again.waitForLoadState('load');
  await expect(again.locator('#lp-draft')).toBeHidden();
  expect(await again.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('lp-lesson-draft:')))).toEqual([]);

  // --- A slug changed in the admin: the old address ends on the new one (staff see drafts).
  await first.page.goto(changeUrl);
  await first.page.locator('#id_slug').fill(RENAMED);
  await first.page.getByRole('button', { name: 'Save and continue editing' }).click();
  await expect(first.page.locator('.messagelist')).toContainText('was changed successfully');
  await first.page.goto(`/lessons/${SLUG}`);
  await expect(first.page.getByRole('heading', { level: 1, name: 'Two editors at once' })).toBeVisible();
  await expect(first.page).toHaveURL(new RegExp(`/lessons/${RENAMED}$`));
  await shot(first.page, 'admin-39-05-old-address-redirected');

  for (const watch of [first.watch, second.watch, againWatch]) expect(watch.problems, 'console errors').toEqual([]);
  await first.context.close();
  await second.context.close();
});
