import { contentEditor, django, expect, shot, signInToAdmin, test } from './fixtures';

// Issue 39, "Drafts of live lessons": an editor rewrites a live lesson in a draft while
// learners keep reading the live one, previews the draft in the app (its check included),
// publishes it at a time (run by the beat task's job), and reverts the live lesson whole.
test.use({ viewport: { width: 1280, height: 1000 } });
test.setTimeout(120_000);

const EDITOR = 'e2e-editor-39-drafts@example.com';
const SLUG = 'e2e-live-draft-lesson';
const ORIGINAL = 'What learners read today.';
const REWRITE = 'The rewrite, half done for a while.';

test.beforeAll(() => {
  contentEditor(EDITOR);
  django(`
from lessons.blocks import block_html
from lessons.models import Block, Lesson
source = Lesson.objects.get(slug="embedding-dimension")
lesson, _ = Lesson.objects.update_or_create(slug="${SLUG}", defaults={"quest": source.quest,
    "title": "A live lesson", "position": 997, "published": True, "publish_at": None})
Lesson.objects.filter(draft_of=lesson).delete()
lesson.blocks.all().delete()
Block.objects.create(lesson=lesson, kind="prose", position=1, markdown="${ORIGINAL}",
    html=block_html("prose", "${ORIGINAL}"))
check = source.blocks.filter(kind="check").order_by("position").first()
check.pk = None
check.lesson = lesson
check.position = 2
check.save()
# A version of the lesson with its blocks in History (the one the revert below goes back to).
lesson.save()
`);
});

// The specs share one database: the lesson made here must not change what later specs count.
test.afterAll(() => {
  django(`
from lessons.models import Lesson
Lesson.objects.filter(draft_of__slug="${SLUG}").delete()
Lesson.objects.filter(slug="${SLUG}").delete()
`);
});

/** The lesson as a signed-out learner reads it, once the app has taken the page over. */
async function learnerSees(page: import('@playwright/test').Page, text: string, title: string) {
  await page.goto(`/lessons/${SLUG}`);
  await expect(page.getByRole('heading', { name: 'Comments' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
  await expect(page.locator('.prose').getByText(text)).toBeVisible();
}

test('a draft of a live lesson is previewed, published at a time and reverted whole', async ({ page, browser, watch }) => {
  watch.allow(/favicon\.ico/);
  const learnerContext = await browser.newContext();
  const learner = await learnerContext.newPage();
  await signInToAdmin(page, EDITOR);
  const liveId = django(`from lessons.models import Lesson; print(Lesson.objects.get(slug="${SLUG}").pk)`).trim();

  // --- The live lesson's page says learners read it and offers a draft.
  await page.goto(`/admin/lessons/lesson/${liveId}/change/`);
  await expect(page.locator('#lp-live-note')).toContainText('Learners read this lesson now');
  await page.getByRole('button', { name: 'Edit a draft' }).click();
  await expect(page.locator('#lp-draft-note')).toContainText('This is a draft of the live lesson');
  await shot(page, 'admin-39-draft-01-draft-page');

  // --- The editor rewrites the title and the prose in the draft and saves it.
  await page.evaluate(() => sessionStorage.clear());
  await page.locator('#id_title').fill('A rewritten lesson');
  const prose = page.locator('#blocks-group .inline-related.has_original').first().locator('textarea.lp-markdown-source');
  await prose.fill(REWRITE);
  await page.getByRole('button', { name: 'Save and continue editing' }).click();
  await expect(page.locator('.messagelist')).toContainText('was changed successfully');
  const draftUrl = page.url();

  // --- Learners still read the live lesson.
  await learnerSees(learner, ORIGINAL, 'A live lesson');
  await expect(learner.getByText(REWRITE)).toHaveCount(0);

  // --- The preview: the app's own page, its check included, marked as a draft.
  const preview = page.locator('a.lp-app-preview');
  const previewPath = new URL((await preview.getAttribute('href'))!, page.url()).pathname;
  await page.goto(previewPath);
  await expect(page.getByText('Draft preview.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('A rewritten lesson');
  await expect(page.locator('.prose').getByText(REWRITE)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Check 1 of 1', exact: true })).toBeVisible();
  await shot(page, 'admin-39-draft-02-preview-in-app');

  // --- Published at a time: a few seconds ahead on the server's clock (UTC), then the beat
  // task's job runs once the time has come.
  await page.goto(draftUrl);
  await page.locator('a.lp-publish-draft').click();
  const at = django(`
from datetime import timedelta
from learning_platform import clock
print((clock.now() + timedelta(seconds=3)).strftime("%Y-%m-%dT%H:%M:%S"))
`).trim();
  await page.getByLabel('Time (UTC)').fill(at);
  await page.getByRole('button', { name: 'Schedule' }).click();
  await expect(page.locator('.messagelist')).toBeVisible();
  await shot(page, 'admin-39-draft-03-scheduled');
  await learnerSees(learner, ORIGINAL, 'A live lesson');
  await expect
    .poll(
      () =>
        django(`
from lessons.tasks import publish_due_lessons
publish_due_lessons()
from lessons.models import Lesson
print(Lesson.objects.filter(draft_of__slug="${SLUG}").count())
`).trim(),
      { timeout: 30_000, intervals: [1_000] },
    )
    .toBe('0');
  await learnerSees(learner, REWRITE, 'A rewritten lesson');
  await shot(learner, 'admin-39-draft-04-published-learner');

  // --- Reverted whole: the version before the draft's publication puts title and text back.
  await page.goto(`/admin/lessons/lesson/${liveId}/history/`);
  const versions = page.locator('.lp-version');
  await versions.nth(1).getByRole('button', { name: 'Revert to this version' }).click();
  await expect(page.locator('.messagelist')).toContainText('Reverted');
  await shot(page, 'admin-39-draft-05-reverted-history');
  await learnerSees(learner, ORIGINAL, 'A live lesson');
  await shot(learner, 'admin-39-draft-06-reverted-learner');
  await learnerContext.close();
});
