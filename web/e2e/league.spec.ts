// Issue 38, weekly leagues in the app: a learner in a Silver cohort of 30 (29 others seeded
// through the real XP ledger, which places them), the league page at 1280 and at 375 px with its
// promotion and demotion lines, then leaving the leagues from Settings; and last week's result,
// celebrated once.
import { axeScan, django, expect, shot, signUp, test } from './fixtures';

const OTHERS = [
  'Grace H.', 'Alan T.', 'Katherine J.', 'Edsger D.', 'Barbara L.', 'Donald K.', 'Margaret H.', 'John M.', 'Frances A.', 'Dennis R.',
  'Radia P.', 'Ken T.', 'Shafi G.', 'Leslie L.', 'Hedy L.', 'Tim B.', 'Sophie W.', 'Niklaus W.', 'Adele G.', 'Guido R.',
  'Jean S.', 'Bjarne S.', 'Annie E.', 'Linus T.', 'Evelyn B.', 'Brian K.', 'Mary K.', 'Yukihiro M.', 'Lynn C.',
];

/**
 * The learner, then 29 others, at Silver (last week's tier, so no idle drop) with XP this week,
 * paid by the ledger (`award_xp`): its league hook places each in the oldest open Silver cohort
 * of their zone with room, the learner's (they come first, so the others fill their cohort).
 */
function seedCohort(email: string, learnerXp: number): void {
  const stamp = Date.now();
  const printed = django(`
from datetime import timedelta
from django.db import IntegrityError, transaction
from accounts.models import User
from leagues import rules
from leagues.models import Leaguer, Membership
from progress.selectors import today_in
from progress.services import Award, award_xp

SILVER = rules.TIERS.index("Silver")
me = User.objects.get(email="${email}")
week = rules.week_start(today_in(me.time_zone))
last_week = week - timedelta(days=7)

def join(user, xp, source):
    Leaguer.objects.update_or_create(user=user, defaults={"tier": SILVER, "last_week": last_week})
    award_xp(awards=[Award(user.id, "lesson", source, xp)])

join(me, ${learnerXp}, ${stamp})
def other(index, name):
    # Display names are unique: a second run on the same database tells its learners apart.
    for shown in (name, f"{name} {${stamp} % 100000}"):
        try:
            with transaction.atomic():
                return User.objects.create(email=f"league-{${stamp}}-{index}@example.com", display_name=shown, time_zone=me.time_zone)
        except IntegrityError:
            pass
    raise RuntimeError(name)

for index, name in enumerate(${JSON.stringify(OTHERS)}):
    join(other(index, name), 420 - 14 * index, ${stamp} + 1 + index)
print(Membership.objects.get(user=me, week=week).cohort.size)
`);
  expect(printed, 'the learner’s cohort is full').toBe('30');
}

test('the league page: a Silver cohort of 30, its lines, at 1280 and 375 px; leaving from Settings', async ({ page, watch }) => {
  void watch;
  await page.setViewportSize({ width: 1280, height: 900 });
  const email = await signUp(page, 'league');
  seedCohort(email, 245);

  await page.goto('/league');
  // The seeded XP is the learner's first level: its celebration comes first, once.
  await page.getByRole('dialog', { name: 'Level up!' }).getByRole('button', { name: 'Continue' }).click();
  const main = page.getByRole('main');
  await expect(main.getByRole('heading', { level: 1, name: 'Silver league' })).toBeVisible();
  await expect(main.getByText(/ · ends in /)).toBeVisible();
  const table = main.getByRole('table', { name: 'Silver league this week, ranked by XP' });
  // 30 members, the header and the two lines.
  await expect(table.getByRole('row')).toHaveCount(33);
  await expect(table.getByRole('row', { name: /Promotion zone: the top 7 move up/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /Demotion zone: the bottom 5 move down/ })).toBeVisible();
  const mine = table.locator('tr[aria-current="true"]');
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText('(you)');
  await expect(mine).toContainText('245');
  await expect(main.getByText(/^You are #\d+ of 30 with 245 XP/)).toBeVisible();
  // Others by their names only: no address on the page.
  await expect(table).toContainText('Grace H.');
  expect(await main.textContent()).not.toContain('@example.com');
  await shot(page, 'league-38-01-page');
  await axeScan(page, 'the league page');

  await page.setViewportSize({ width: 375, height: 812 });
  await page.reload();
  await expect(main.getByRole('heading', { level: 1, name: 'Silver league' })).toBeVisible();
  await expect(table.getByRole('row')).toHaveCount(33);
  const widths = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, table: document.querySelector('main table')!.scrollWidth, view: window.innerWidth }));
  expect(widths.page, 'no horizontal scroll at 375 px').toBeLessThanOrEqual(widths.view);
  expect(widths.table, 'the table fits at 375 px').toBeLessThanOrEqual(widths.view);
  await shot(page, 'league-38-02-page-375');
  await axeScan(page, 'the league page at 375 px');

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/settings');
  const section = page.getByRole('region', { name: 'Weekly leagues' });
  const toggle = section.getByRole('checkbox', { name: 'Take part in weekly leagues' });
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await expect(page.getByText('You left the weekly leagues')).toBeVisible();
  await expect(toggle).not.toBeChecked();
  await expect(section.getByText(/Now: you are out of the leagues/)).toBeVisible();
  await section.scrollIntoViewIfNeeded();
  await shot(page, 'league-38-03-settings-opt-out');
  await axeScan(page, 'Settings, out of the leagues');
  expect(django(`from accounts.models import User; from leagues.models import Leaguer; print(Leaguer.objects.get(user=User.objects.get(email="${email}")).opted_out)`)).toBe('True');

  // The league page says so, and joins again from there.
  await page.goto('/league');
  await expect(page.getByRole('region', { name: 'You left the leagues' })).toBeVisible();
  await page.getByRole('button', { name: 'Join the leagues again' }).click();
  await expect(page.getByText(/Earn XP this week to join a Silver league of 30/)).toBeVisible();
});

/**
 * Last week's Silver cohort of 13, the learner 3rd, closed by the leagues' own close
 * (`close_cohort`): the top 7 move up to Gold. Rows written directly: no XP, so no level-up.
 */
function seedClosedWeek(email: string): void {
  const stamp = Date.now();
  const printed = django(`
from datetime import timedelta
from accounts.models import User
from leagues import rules, services
from leagues.models import Cohort, Leaguer, Membership
from learning_platform import clock
from progress.selectors import today_in

SILVER = rules.TIERS.index("Silver")
me = User.objects.get(email="${email}")
week = rules.week_start(today_in(me.time_zone)) - timedelta(days=7)
now = clock.now()
cohort = Cohort.objects.create(week=week, tier=SILVER, anchor_offset=0, size=13, ends_at=now - timedelta(hours=1))
others = [User.objects.create(email=f"league-result-{${stamp}}-{n}@example.com") for n in range(12)]
for n, user in enumerate(others[:2] + [me] + others[2:]):
    Leaguer.objects.update_or_create(user=user, defaults={"tier": SILVER, "last_week": week})
    Membership.objects.create(user=user, week=week, cohort=cohort, offset=0, xp=300 - 10 * n, reached_at=now)
services.close_cohort(cohort_id=cohort.pk)
print(Membership.objects.get(user=me, week=week).rank)
`);
  expect(printed, 'the learner finished 3rd').toBe('3');
}

test('last week’s result: celebrated once in a dialog, not again after a reload', async ({ page, watch }) => {
  void watch;
  await page.setViewportSize({ width: 1280, height: 900 });
  const email = await signUp(page, 'league-result');
  seedClosedWeek(email);

  await page.goto('/league');
  const dialog = page.getByRole('dialog', { name: 'You moved up to Gold!' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('You finished 3rd of 13 in the Silver league.');
  await expect(dialog).toContainText('This week you play in the Gold league.');
  // Focus starts on the way out of it.
  await expect(dialog.getByRole('button', { name: 'Continue' })).toBeFocused();
  await shot(page, 'league-38-04-result-celebration');
  await axeScan(page, 'the league result celebration');

  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'Gold league' })).toBeVisible();

  // Seen on the server: no device shows it again.
  await page.reload();
  await expect(page.getByRole('main').getByRole('heading', { level: 1, name: 'Gold league' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  expect(django(`from accounts.models import User; from leagues.models import Membership; print(Membership.objects.get(user=User.objects.get(email="${email}"), rank=3).result_seen_at is not None)`)).toBe('True');
});
