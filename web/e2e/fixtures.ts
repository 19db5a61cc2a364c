import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';

export const artifacts = join(import.meta.dirname, '..', 'e2e-artifacts');
mkdirSync(artifacts, { recursive: true });

export const PASSWORD = 'correct horse battery staple';

/** Saves a full-page screenshot as e2e-artifacts/<name>.png (CI keeps the folder). */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
}

export function uniqueEmail(prefix: string): string {
  return `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/**
 * Every page a test opens is watched: a JavaScript error or a console error fails the test,
 * and so does any failed request (Chromium logs each as a console error) unless the test
 * allows it because it provokes it (e.g. a link with a key that is not valid).
 */
export function watchConsole(page: Page, allowed: RegExp[] = []) {
  const problems: string[] = [];
  const failedRequests: { url: string; status: number }[] = [];
  const allowedRequest = (url: string, status: number) => allowed.some((pattern) => pattern.test(`${status} ${url}`));
  page.on('response', (response) => {
    if (response.status() >= 400) failedRequests.push({ url: response.url(), status: response.status() });
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    const status = /status of (\d{3})/.exec(text)?.[1];
    if (status) {
      const url = message.location().url;
      if (allowedRequest(url, Number(status))) return;
      problems.push(`console error: ${text} (${url})`);
      return;
    }
    problems.push(`console error: ${text}`);
  });
  return {
    problems,
    failedRequests,
    allow(pattern: RegExp) {
      allowed.push(pattern);
    },
  };
}

type Watch = ReturnType<typeof watchConsole>;

export const test = base.extend<{ watch: Watch; newLearnerPage: (prefix: string) => Promise<{ page: Page; context: BrowserContext; email: string }> }>({
  watch: async ({ page }, use) => {
    const watch = watchConsole(page);
    await use(watch);
    expect(watch.problems, 'console errors').toEqual([]);
  },
  newLearnerPage: async ({ browser }, use) => {
    const opened: { context: BrowserContext; watch: Watch }[] = [];
    await use(async (prefix: string) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const watch = watchConsole(page);
      opened.push({ context, watch });
      const email = await signUp(page, prefix);
      return { page, context, email };
    });
    for (const { context, watch } of opened) {
      await context.close();
      expect(watch.problems, 'console errors in a second browser').toEqual([]);
    }
  },
});

export { expect };

export async function signUp(page: Page, prefix: string, email = uniqueEmail(prefix)): Promise<string> {
  await page.goto('/signup');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  return email;
}

export async function signIn(page: Page, email: string, next = '/'): Promise<void> {
  await page.goto(`/signin?next=${encodeURIComponent(next)}`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
}

export async function newContextPage(browser: Browser): Promise<{ context: BrowserContext; page: Page; watch: Watch }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  return { context, page, watch: watchConsole(page) };
}

export function header(page: Page) {
  return page.getByTestId('progress-header');
}

export const mailDir = join(import.meta.dirname, '..', '.e2e-run', 'mail');

/**
 * The first link matching `pattern` in an e-mail to `to`, as Django's file backend wrote it
 * (e-mails may be sent by the worker, so it waits for them).
 */
export async function linkFromMail(to: string, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const name of existsSync(mailDir) ? readdirSync(mailDir) : []) {
      // One file per connection, messages separated by a line of dashes.
      for (const message of readFileSync(join(mailDir, name), 'utf8').split(/\n-{20,}\n/)) {
        if (!new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(message)) continue;
        const decoded = message.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        const match = pattern.exec(decoded);
        if (match) return match[0];
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`no e-mail to ${to} with a link matching ${pattern} in ${mailDir}`);
}
