import { expect, shot, signUp, test } from './fixtures';

test('a comment, a reply from a second learner, and the notification it brings', async ({ page, watch, newLearnerPage }) => {
  void watch;
  await signUp(page, 'author');
  await page.goto('/lessons/embedding-dimension');
  const comments = page.getByRole('region', { name: 'Comments' });
  await expect(comments.getByLabel('Notify me of new comments and replies')).toBeVisible();
  const body = `Is d_model always divisible by the head count? ${Date.now()}`;
  await comments.getByLabel('Add a comment').fill(body);
  await comments.getByRole('button', { name: 'Post comment' }).click();
  const posted = comments.getByRole('article').filter({ has: page.locator('.prose', { hasText: body }) });
  await expect(posted).toBeVisible();
  const mine = page.locator(`#${await posted.getAttribute('id')}`);
  // Commenting follows the lesson's replies by default.
  await expect(comments.getByLabel('Notify me of new comments and replies')).toBeChecked();

  await mine.getByRole('button', { name: 'Edit' }).click();
  await mine.getByLabel('Edit your comment').fill(`${body} (edited)`);
  await mine.getByRole('button', { name: 'Save' }).click();
  await expect(mine).toContainText(`${body} (edited)`);
  await expect(mine.locator('header')).toContainText('(edited)');
  await shot(page, '09-comment-posted-and-edited');

  const answer = `Yes: d_head = d_model / n_heads must be a whole number. ${Date.now()}`;
  const second = await newLearnerPage('replier');
  await second.page.goto('/lessons/embedding-dimension');
  const theirView = second.page.getByRole('region', { name: 'Comments' });
  const thread = theirView.getByRole('article').filter({ has: second.page.locator('.prose', { hasText: body }) });
  // A reply they take back: posted, then deleted.
  const extra = `A reply I take back. ${Date.now()}`;
  await thread.getByRole('button', { name: 'Reply' }).click();
  await thread.getByLabel(/Reply to/).fill(extra);
  await thread.getByRole('button', { name: 'Post reply' }).click();
  const extraReply = theirView.getByRole('article').filter({ has: second.page.locator('.prose', { hasText: extra }) });
  await expect(extraReply).toBeVisible();
  await extraReply.getByRole('button', { name: 'Delete' }).click();
  await second.page.getByRole('dialog', { name: 'Delete this comment?' }).getByRole('button', { name: 'Delete comment' }).click();
  await expect(extraReply).toHaveCount(0);

  await thread.getByRole('button', { name: 'Reply' }).click();
  await thread.getByLabel(/Reply to/).fill(answer);
  await thread.getByRole('button', { name: 'Post reply' }).click();
  const reply = theirView.getByRole('article').filter({ has: second.page.locator('.prose', { hasText: answer }) });
  await expect(reply).toBeVisible();
  await expect(reply).toContainText('replying to');
  await shot(second.page, '10-reply-from-second-learner');
  // And one more, which stays too.
  const more = `And d_head is 64 or 128 in most models. ${Date.now()}`;
  await thread.getByRole('button', { name: 'Reply' }).click();
  await thread.getByLabel(/Reply to/).fill(more);
  await thread.getByRole('button', { name: 'Post reply' }).click();
  await expect(theirView.getByRole('article').filter({ has: second.page.locator('.prose', { hasText: more }) })).toBeVisible();

  // The first learner sees the replies' notifications in the top bar: two, as the reply taken
  // back took its own with it (the worker fans them out).
  const unread = () => page.evaluate(async () => (await (await fetch('/api/v1/me/notifications/?unread=true&page_size=1')).json()).unread_count);
  await expect.poll(unread, { timeout: 20_000 }).toBe(2);
  await page.reload();
  const bell = page.getByRole('link', { name: /Notifications, [1-9]\d* unread/ });
  await expect(bell).toBeVisible({ timeout: 20_000 });
  await expect(bell).toHaveAccessibleName('Notifications, 2 unread');
  await shot(page, '11-unread-notification-in-top-bar');
  await bell.click();
  await expect(page.getByRole('heading', { name: 'Notifications' })).toBeVisible();
  const items = page.getByRole('list', { name: 'Your notifications' }).getByRole('listitem');
  await expect(items).toHaveCount(2);
  const item = items.last();
  await expect(item).toContainText(/repl/i);
  await shot(page, '12-notifications-page');
  await item.getByRole('link').click();
  await expect(page).toHaveURL(/\/lessons\/embedding-dimension#comment-\d+/);
  await expect(page.locator(new URL(page.url()).hash)).toBeInViewport();
  await expect(page.locator(new URL(page.url()).hash)).toContainText(/d_head/);
  await shot(page, '13-notification-opens-the-reply');

  await page.goto('/notifications');
  await expect(page.getByText(/^[1-9]\d* unread$/)).toBeVisible();
  await page.getByRole('button', { name: 'Mark all read' }).click();
  await expect(page.getByText('0 unread')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Notifications, 0 unread' })).toBeVisible();
});
