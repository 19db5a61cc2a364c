import { django, expect, shot, test } from './fixtures';

// Issue 23, walked as a content editor (a member of "Content editors", not a superuser):
// reordering by a real mouse drag and by keyboard, collapsing, the error summary, history and
// revert, the slug filled from the title, scheduled publishing, analytics that count what
// learners see, search help, and what resolving a report sends.
test.use({ viewport: { width: 1280, height: 1000 } });
test.setTimeout(180_000);

const EDITOR = { email: 'e2e-editor-23@example.com', password: 'correct horse battery staple' };
const REPORTER = 'e2e-reporter-23@example.com';

test.beforeAll(() => {
  django(`
from django.contrib.auth.models import Group
from accounts.models import User
from community.models import IssueReport
from lessons.models import Lesson
editor, _ = User.objects.get_or_create(email="${EDITOR.email}")
editor.is_staff = True
editor.is_superuser = False
editor.set_password("${EDITOR.password}")
editor.save()
editor.groups.add(Group.objects.get(name="Content editors"))
lesson = Lesson.objects.get(slug="embedding-dimension")
reporter, _ = User.objects.get_or_create(email="${REPORTER}")
reporter.email_notifications = True
reporter.save()
IssueReport.objects.get_or_create(lesson=lesson, reporter=reporter, kind="typo",
    message="Typo in the second paragraph: 'dimesion'.")
# A draft first in the quest: learners do not see it, so analytics must not number it.
Lesson.objects.update_or_create(slug="e2e-draft-first", defaults={"quest": lesson.quest,
    "title": "A draft before everything", "position": 0, "published": False, "publish_at": None})
Lesson.objects.update_or_create(slug="e2e-scheduled", defaults={"quest": lesson.quest,
    "title": "Scheduled by the e2e run", "position": 999, "published": False, "publish_at": None})
`);
});

// The specs share one database: the lessons made here must not change what later specs count
// ("0/94 lessons").
test.afterAll(() => {
  django(`
from lessons.models import Lesson
Lesson.objects.filter(slug__in=["e2e-draft-first", "e2e-scheduled"]).delete()
`);
});

test('an editor reorders, collapses, fixes errors, reverts, schedules and reads the figures', async ({
  page,
  request,
  watch,
}) => {
  watch.allow(/favicon\.ico/);
  await page.goto('/admin/login/');
  await page.getByLabel('Email address').or(page.getByLabel('E-mail address')).fill(EDITOR.email);
  await page.getByLabel('Password').fill(EDITOR.password);
  await page.getByRole('button', { name: 'Log in' }).click();

  const lessonId = django(`from lessons.models import Lesson; print(Lesson.objects.get(slug="embedding-dimension").pk)`);
  const changeUrl = `/admin/lessons/lesson/${lessonId}/change/`;
  await page.goto(changeUrl);
  await page.evaluate(() => sessionStorage.clear());
  await page.reload();
  const blocks = page.locator('#blocks-group .inline-related.has_original');
  await expect(blocks.first().locator('.lp-drag-handle')).toBeVisible();

  // --- Collapsing: a one-line summary each (kind, first words); the save bar stays in view.
  const blocksHeight = async () => (await page.locator('#blocks-group').boundingBox())!.height;
  const heightBefore = await blocksHeight();
  await page.getByRole('button', { name: 'Collapse all' }).click();
  await expect(blocks.first().locator('.lp-block-summary')).toBeVisible();
  await expect(blocks.first().locator('.lp-block-summary')).toHaveText(/^Prose \(Markdown\) — \S+/);
  await expect(blocks.first().locator('textarea').first()).toBeHidden();
  expect(await blocksHeight()).toBeLessThan(heightBefore / 4);
  await expect(page.locator('.submit-row')).toBeInViewport();
  await blocks.first().scrollIntoViewIfNeeded();
  await shot(page, 'admin-23-01-collapsed');

  // --- A real mouse drag: the second block's handle, pressed and moved in steps above the first.
  const firstId = await blocks.nth(0).getAttribute('id');
  const secondId = await blocks.nth(1).getAttribute('id');
  const handle = await blocks.nth(1).locator('.lp-drag-handle').boundingBox();
  const target = await blocks.nth(0).locator('h3').boundingBox();
  await page.mouse.move(handle!.x + handle!.width / 2, handle!.y + handle!.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle!.x + handle!.width / 2, target!.y + 2, { steps: 15 });
  await page.mouse.up();
  await expect(blocks.nth(0)).toHaveAttribute('id', secondId!);
  await expect(blocks.nth(1)).toHaveAttribute('id', firstId!);
  await expect(blocks.nth(0).locator('input.lp-block-position')).toHaveValue('1');
  await expect(blocks.nth(1).locator('input.lp-block-position')).toHaveValue('2');
  await expect(page.locator('#blocks-group .lp-announce')).toHaveText(/Block moved to position 1 of \d+/);
  await shot(page, 'admin-23-02-mouse-drag');

  // --- The keyboard: "Move down" on the moved block puts it back; the focus stays on it.
  await blocks.nth(0).getByRole('button', { name: 'Move down' }).focus();
  await page.keyboard.press('Enter');
  await expect(blocks.nth(0)).toHaveAttribute('id', firstId!);
  await expect(blocks.nth(1)).toHaveAttribute('id', secondId!);
  await expect(blocks.nth(1).getByRole('button', { name: 'Move down' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(blocks.nth(2)).toHaveAttribute('id', secondId!);
  await expect(blocks.nth(2).getByRole('button', { name: 'Move down' })).toBeFocused();
  await expect(blocks.nth(2).locator('input.lp-block-position')).toHaveValue('3');
  await shot(page, 'admin-23-03-keyboard-move');
  // Back to where it was, and the order saved is the one on the screen.
  await blocks.nth(2).getByRole('button', { name: 'Move up' }).click();
  await expect(blocks.nth(1)).toHaveAttribute('id', secondId!);

  // The collapsed state outlives a save that comes back to the form.
  await blocks.nth(0).getByRole('button', { name: 'Expand' }).click();
  await page.getByRole('button', { name: 'Save and continue editing' }).click();
  await expect(page.locator('.messagelist')).toContainText('was changed successfully');
  await expect(blocks.nth(0).locator('textarea').first()).toBeVisible();
  await expect(blocks.nth(1).locator('.lp-block-summary')).toBeVisible();
  await expect(blocks.nth(1)).toHaveAttribute('id', secondId!);
  await page.getByRole('button', { name: 'Expand all' }).click();
  // On a long page, scrolled to the top, the save buttons are on screen.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(page.getByRole('button', { name: 'Save and continue editing' })).toBeInViewport();

  // --- Errors: the preview says what the save will say; the save lists each failing block.
  const prose = blocks.nth(0);
  await prose.locator('textarea.lp-markdown-source').fill('See [this](javascript:alert(1)).');
  await expect(prose.locator('.lp-markdown-problems')).toContainText('If saved now: Refused: remove the `javascript:` link');
  const previewWords = (await prose.locator('.lp-markdown-problems').innerText()).replace(/^⚠ If saved now: /, '');
  const tableBlock = page.locator('#blocks-group .inline-related[data-kind="table"]').first();
  await tableBlock.locator('textarea.lp-table-text').fill('Model\td_model\nGPT-2\n');
  await page.getByRole('button', { name: 'Save and continue editing' }).click();
  const summary = page.locator('#lp-error-summary');
  await expect(summary).toContainText('Not saved: 2 problems to fix');
  await expect(page).toHaveTitle(/^2 problems · /);
  await expect(summary.getByRole('link')).toHaveCount(2);
  await expect(summary).toContainText(previewWords.trim());
  await expect(blocks.nth(0).locator('.errorlist')).toContainText(previewWords.trim());
  await shot(page, 'admin-23-04-error-summary');
  await summary.getByRole('link', { name: /\(table\)/ }).click();
  await expect(page).toHaveURL(/#blocks-\d+$/);

  // --- History and revert: an edit by the editor, then back to the version before it.
  await page.goto(changeUrl);
  await blocks.nth(0).locator('textarea.lp-markdown-source').fill('Edited in the e2e run: **d_model** is wrong here.');
  await page.getByRole('button', { name: 'Save and continue editing' }).click();
  await expect(page.locator('.messagelist')).toContainText('was changed successfully');
  const api = async () => (await (await request.get('/api/v1/lessons/embedding-dimension/')).json()) as { blocks: { html?: string }[] };
  expect((await api()).blocks[0].html).toContain('Edited in the e2e run');
  await page.getByRole('link', { name: 'History' }).click();
  const versions = page.locator('.lp-version');
  await expect(versions.first()).toContainText(EDITOR.email);
  await expect(versions.first()).toContainText('Edited in the e2e run');
  await shot(page, 'admin-23-05-history');
  await versions.nth(1).getByRole('button', { name: 'Revert to this version' }).click();
  await expect(page.locator('.messagelist')).toContainText('Reverted. Learners see this version now');
  await expect(versions.first()).toContainText('Reverted to the version of');
  await expect(versions.first()).toContainText(EDITOR.email);
  // Learners get the reverted lesson on their very next request.
  expect((await api()).blocks[0].html).not.toContain('Edited in the e2e run');
  await shot(page, 'admin-23-06-reverted');

  // --- A new lesson: the slug follows the title as it is typed, and stays editable.
  await page.goto('/admin/lessons/lesson/add/');
  await page.locator('#id_title').pressSequentially('Attention heads, counted');
  await expect(page.locator('#id_slug')).toHaveValue('attention-heads-counted');
  await page.locator('#id_slug').fill('heads-counted');
  await page.locator('#id_title').pressSequentially('!');
  await expect(page.locator('#id_slug')).toHaveValue('heads-counted');
  await shot(page, 'admin-23-07-slug-from-title');

  // --- Scheduled publishing: set for a few seconds ahead; learners get it then, nobody acts.
  const scheduledId = django(`from lessons.models import Lesson; print(Lesson.objects.get(slug="e2e-scheduled").pk)`);
  const due = new Date(Date.now() + 30_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  await page.goto(`/admin/lessons/lesson/${scheduledId}/change/`);
  await page.locator('#id_publish_at_0').fill(`${due.getUTCFullYear()}-${pad(due.getUTCMonth() + 1)}-${pad(due.getUTCDate())}`);
  await page.locator('#id_publish_at_1').fill(`${pad(due.getUTCHours())}:${pad(due.getUTCMinutes())}:${pad(due.getUTCSeconds())}`);
  await shot(page, 'admin-23-08-publish-at');
  await page.getByRole('button', { name: 'Save and continue editing' }).click();
  await expect(page.locator('.messagelist')).toContainText('was changed successfully');
  // `request` is not signed in: a learner's view. Prime the cached quest outline first.
  expect((await request.get('/api/v1/lessons/e2e-scheduled/')).status()).toBe(404);
  const questSlug = django(`from lessons.models import Lesson; print(Lesson.objects.get(slug="e2e-scheduled").quest.slug)`);
  expect(JSON.stringify(await (await request.get(`/api/v1/quests/${questSlug}/`)).json())).not.toContain('e2e-scheduled');
  await expect
    .poll(async () => (await request.get('/api/v1/lessons/e2e-scheduled/')).status(), { timeout: 60_000, intervals: [1000] })
    .toBe(200);
  expect(JSON.stringify(await (await request.get(`/api/v1/quests/${questSlug}/`)).json())).toContain('e2e-scheduled');

  // --- Analytics count what learners see: the draft placed first is not numbered.
  const [number, total] = django(`
from lessons.models import Lesson
lesson = Lesson.objects.get(slug="embedding-dimension")
seen = list(Lesson.objects.published().filter(quest=lesson.quest).order_by("position", "id").values_list("id", flat=True))
print(seen.index(lesson.id) + 1, len(seen))`).split(' ');
  await page.goto(`/admin/insights/questanalytics/lesson/${lessonId}/?refresh=1`);
  await expect(page.locator('.insights-figures')).toContainText(`${number} of ${total}`);
  await expect(page.getByText(/median time from first submission to first pass: too few yet|has no exercise/).first()).toBeVisible();
  await shot(page, 'admin-23-09-analytics');
  await page.goto('/admin/insights/questanalytics/');
  await expect(page.locator('#changelist-search')).toContainText("Part of a quest's title or slug.");
  await expect(page.locator('#changelist-search')).not.toContainText('e-mail');
  await shot(page, 'admin-23-10-search-help');

  // --- Resolving a report: the form says, before saving, that the reporter is e-mailed and
  // what, never the reporter's address (editors do not see it).
  await page.goto('/admin/community/issuereport/');
  await page.getByRole('link', { name: /Typo in the second paragraph/ }).first().click();
  const notice = page.locator('.lp-resolve-notice');
  await expect(notice).toContainText('e-mails the reporter and notifies them in the app');
  await expect(page.locator('#content')).not.toContainText(REPORTER);
  await expect(notice).toContainText('Thanks! Your report on “Embedding dimension');
  await expect(notice).not.toHaveClass(/lp-armed/);
  await page.getByLabel('Status').selectOption('resolved');
  await expect(notice).toHaveClass(/lp-armed/);
  await shot(page, 'admin-23-11-resolve-notice');
});
