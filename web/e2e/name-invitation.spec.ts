import { axeScan, expect, newContextPage, PASSWORD, shot, signUp, tabTo, test } from './fixtures';

const invitation = (page: import('@playwright/test').Page) => page.getByRole('region', { name: 'Choose your name' });

test('a learner still shown by their handle is invited once to choose a name, and chooses one', async ({ page, watch }) => {
  void watch;
  await signUp(page, 'handle');
  await page.goto('/leaderboard');
  const region = invitation(page);
  await expect(region).toContainText(/Others see you as Learner \d{6}\./);
  await shot(page, 'name-invitation-1280');
  await axeScan(page, 'leaderboard with the name invitation 1280');

  const name = `Ada ${Date.now().toString(36).replace(/[0-9]/g, 'q')}`;
  await tabTo(page, region.getByLabel('Your name'));
  await page.keyboard.type(name);
  await page.keyboard.press('Enter');
  await expect(page.getByText(`Others now see you as ${name}.`)).toBeVisible();
  await expect(region).toBeHidden();
  await page.goto('/settings');
  await expect(page.getByLabel('Display name')).toHaveValue(name);
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 812 } });

  test('dismissed, the invitation is not shown again, on this device or another', async ({ page, browser, watch }) => {
    void watch;
    const email = await signUp(page, 'dismiss');
    // Recorded as soon as it is shown: listened for before the page that shows it.
    const recorded = page.waitForResponse((response) => response.url().endsWith('/api/v1/me/name-invitation'));
    await page.goto('/leaderboard');
    const region = invitation(page);
    await expect(region).toBeVisible();
    await shot(page, 'name-invitation-375');
    await region.getByRole('button', { name: 'Not now' }).click();
    await expect(region).toBeHidden();
    expect((await recorded).status()).toBe(200);

    // The invitation waits for the profile: once it has come, there is none.
    const profile = page.waitForResponse((response) => response.url().endsWith('/api/v1/me/'));
    await page.reload();
    expect((await profile).status()).toBe(200);
    await expect(page.getByText('Your rank', { exact: false })).toBeVisible();
    await expect(invitation(page)).toHaveCount(0);

    // The mark is on the account: a second device does not ask either.
    const other = await newContextPage(browser);
    await other.page.goto('/signin?next=%2Fleaderboard');
    await other.page.getByLabel('E-mail').fill(email);
    await other.page.getByLabel('Password').fill(PASSWORD);
    const otherProfile = other.page.waitForResponse((response) => response.url().endsWith('/api/v1/me/'));
    await other.page.getByRole('button', { name: 'Sign in' }).click();
    expect((await otherProfile).status()).toBe(200);
    await expect(other.page.getByText('Your rank', { exact: false })).toBeVisible();
    await expect(invitation(other.page)).toHaveCount(0);
    await other.context.close();
    expect(other.watch.problems).toEqual([]);
  });
});
