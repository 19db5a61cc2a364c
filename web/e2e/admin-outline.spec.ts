import type { Page } from '@playwright/test';
import { django, expect, PASSWORD, shot, test, watchConsole } from './fixtures';

// Issue 39, a course outline: a content editor reorders a quest's lessons and units in the
// admin's outline page by mouse (drag and drop) and by keyboard (arrow keys on a handle, each
// move announced), saves, and an order based on a stale page is refused with nothing lost.
// The quest is the spec's own, deleted at the end: no lesson of content/ is touched.
test.use({ viewport: { width: 1280, height: 900 } });
test.setTimeout(120_000);

const EDITOR = 'e2e-outline-39@example.com';
const QUEST = 'e2e-outline';

let questId = '';

test.beforeAll(() => {
  questId = django(`
from django.contrib.auth.models import Group
from accounts.models import User
from lessons.models import Lesson, Quest, Unit
editor, _ = User.objects.get_or_create(email="${EDITOR}")
editor.is_staff = True
editor.is_superuser = False
editor.set_password("${PASSWORD}")
editor.save()
editor.groups.add(Group.objects.get(name="Content editors"))
Lesson.objects.filter(quest__slug="${QUEST}").delete()
Quest.objects.filter(slug="${QUEST}").delete()
quest = Quest.objects.create(slug="${QUEST}", title="Outline walk", description="The e2e run's.")
one = Unit.objects.create(quest=quest, title="Part one", position=1)
two = Unit.objects.create(quest=quest, title="Part two", position=2)
for n, (slug, unit) in enumerate([("alpha", None), ("beta", one), ("gamma", one), ("delta", two)], 1):
    Lesson.objects.create(quest=quest, unit=unit, slug=f"e2e-outline-{slug}", title=slug.title(),
        position=n, published=False)
print(quest.pk)
`);
});

test.afterAll(() => {
  django(`
from lessons.models import Lesson, Quest
Lesson.objects.filter(quest__slug="${QUEST}").delete()
Quest.objects.filter(slug="${QUEST}").delete()
`);
});

/** The quest's lessons as stored: "unit/slug" in the order learners get them. */
function storedOrder(): string {
  return django(`
from lessons.models import Lesson
rows = Lesson.objects.filter(quest__slug="${QUEST}").order_by("position", "id")
print(",".join(f"{l.unit.title if l.unit else '-'}/{l.title}" for l in rows))
`);
}

const lessonRow = (page: Page, title: string) => page.locator('.lp-outline-lesson', { hasText: title });
const titlesOnPage = (page: Page) => page.locator('.lp-outline-lesson > a').allTextContents();

test('the outline is reordered by mouse and by keyboard, and a stale order is refused', async ({ page }) => {
  // A stale order answers 409 on purpose (the last step).
  const watch = watchConsole(page, [/favicon\.ico/, /^409 .*\/outline\/order\/$/]);
  await page.goto('/admin/login/');
  await page.getByLabel('Email address').or(page.getByLabel('E-mail address')).fill(EDITOR);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.goto(`/admin/lessons/quest/${questId}/change/`);
  await page.getByRole('link', { name: 'Outline' }).click();
  await expect(page.getByRole('heading', { name: 'Outline: Outline walk' })).toBeVisible();
  expect(await titlesOnPage(page)).toEqual(['Alpha', 'Beta', 'Gamma', 'Delta']);
  // No empty error box before anything went wrong.
  await expect(page.locator('#lp-outline-error')).toBeHidden();
  await shot(page, 'admin-39-outline-01-opened');

  // --- By mouse: Delta dragged onto the top half of Beta lands before it, in Part one.
  const status = page.getByRole('status');
  await lessonRow(page, 'Delta').dragTo(lessonRow(page, 'Beta'), { targetPosition: { x: 40, y: 3 } });
  expect(await titlesOnPage(page)).toEqual(['Alpha', 'Delta', 'Beta', 'Gamma']);
  await expect(status).toHaveText('Lesson “Delta” moved to place 2 of 4, in unit “Part one”. Not saved yet.');
  await expect(lessonRow(page, 'Delta').locator('.lp-outline-number')).toHaveText('2');
  await shot(page, 'admin-39-outline-02-dragged');
  await page.getByRole('button', { name: 'Save order' }).click();
  await expect(status).toHaveText('Order saved. Learners see it now.');
  expect(storedOrder()).toBe('-/Alpha,Part one/Delta,Part one/Beta,Part one/Gamma');

  // --- By keyboard: Alpha's handle, arrow down twice: into Part one, then below Delta.
  await page.getByRole('button', { name: 'Move lesson Alpha', exact: true }).focus();
  await page.keyboard.press('ArrowDown');
  await expect(status).toHaveText('Lesson “Alpha” moved to place 1 of 4, in unit “Part one”. Not saved yet.');
  await page.keyboard.press('ArrowDown');
  await expect(status).toHaveText('Lesson “Alpha” moved to place 2 of 4, in unit “Part one”. Not saved yet.');
  await expect(page.getByRole('button', { name: 'Move lesson Alpha', exact: true })).toBeFocused();
  // ... and the units: Part two's handle, arrow up, above Part one.
  await page.getByRole('button', { name: 'Move unit Part two', exact: true }).focus();
  await page.keyboard.press('ArrowUp');
  await expect(status).toHaveText('Unit “Part two” moved to place 1 of 2. Not saved yet.');
  await shot(page, 'admin-39-outline-03-keyboard');
  await page.keyboard.press('Tab'); // on to the unit's ▲ button; Enter saves nothing by itself
  await page.getByRole('button', { name: 'Save order' }).click();
  await expect(status).toHaveText('Order saved. Learners see it now.');
  expect(storedOrder()).toBe('Part one/Delta,Part one/Alpha,Part one/Beta,Part one/Gamma');
  expect(await page.locator('.lp-outline-unit-title').allTextContents()).toEqual(['Not in a unit', 'Part two', 'Part one']);

  // --- Stale: another save of Gamma comes in; this page's next order is refused, kept here.
  django(`
from lessons.models import Lesson
lesson = Lesson.objects.get(slug="e2e-outline-gamma")
lesson.version += 1
lesson.save()
`);
  await page.getByRole('button', { name: 'Move lesson Gamma up', exact: true }).click();
  await page.getByRole('button', { name: 'Save order' }).click();
  const error = page.getByRole('alert');
  await expect(error).toContainText('“Gamma” was changed by');
  await expect(error).toContainText('Nothing was saved and your order is still on the page');
  expect(await titlesOnPage(page)).toEqual(['Delta', 'Alpha', 'Gamma', 'Beta']);
  expect(storedOrder()).toBe('Part one/Delta,Part one/Alpha,Part one/Beta,Part one/Gamma');
  await shot(page, 'admin-39-outline-04-stale-refused');

  // After a reload the page shows the stored order at the new versions, and saves again.
  await page.reload();
  await page.getByRole('button', { name: 'Move lesson Gamma up', exact: true }).click();
  await page.getByRole('button', { name: 'Save order' }).click();
  await expect(status).toHaveText('Order saved. Learners see it now.');
  expect(storedOrder()).toBe('Part one/Delta,Part one/Alpha,Part one/Gamma,Part one/Beta');
  expect(watch.problems, 'console errors').toEqual([]);
});
