import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';

export const artifacts = join(import.meta.dirname, '..', 'e2e-artifacts');
mkdirSync(artifacts, { recursive: true });

export const PASSWORD = 'correct horse battery staple';

/** Saves a full-page screenshot as e2e-artifacts/<name>.png (CI keeps the folder). */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
}

/** Fails on any serious or critical axe violation on the page as it is now (WCAG 2.1 A/AA and best practice). */
export async function axeScan(page: Page, name: string): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const blocking = results.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  const summary = blocking.map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  expect(summary, `axe: serious or critical violations on ${name}`).toEqual([]);
  console.log(`axe ${name}: ${results.violations.length} violations (none serious or critical), ${results.passes.length} rules passed`);
}

const repo = join(import.meta.dirname, '..', '..');

/** Runs Python in the stack's Django (`manage.py shell -c`, same database) and returns the last line it printed. */
export function django(code: string): string {
  const result = spawnSync(join(repo, '.venv', 'bin', 'python'), ['manage.py', 'shell', '-c', code], {
    cwd: repo,
    env: { ...process.env, DEBUG: '1' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`manage.py shell failed: ${result.stderr}`);
  // The shell may announce its automatic imports first: what the code printed is last.
  return result.stdout.trim().split('\n').pop() ?? '';
}

/** Makes `email` a member of "Content editors" (staff, not a superuser) whose password is PASSWORD. */
export function contentEditor(email: string): void {
  django(`
from django.contrib.auth.models import Group
from accounts.models import User
editor, _ = User.objects.get_or_create(email="${email}")
editor.is_staff = True
editor.is_superuser = False
editor.set_password("${PASSWORD}")
editor.save()
editor.groups.add(Group.objects.get(name="Content editors"))
`);
}

/** Signs `page` in to the admin as `email` (password PASSWORD). */
export async function signInToAdmin(page: Page, email: string): Promise<void> {
  await page.goto('/admin/login/');
  await page.getByLabel('Email address').or(page.getByLabel('E-mail address')).fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
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

// --- A lesson's checks, answered from its file -------------------------------------------------

/** Reads a lesson file (YAML) as JSON: its XP, whether it has an exercise, its checks in order. */
const READ_LESSON = `
import json, sys, yaml
lesson = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
text = lambda value: str(value).strip()
checks = []
for block in lesson["blocks"]:
    if block.get("kind") != "check":
        continue
    check = {"key": block["key"], "type": block["type"], "revealAfter": block.get("reveal_after", 3)}
    if block["type"] == "numeric":
        check["answer"] = str(block["answer"])
        check["mistakes"] = [
            {name: value.strip() if name == "feedback" else str(value) for name, value in mistake.items()}
            for mistake in block.get("mistakes") or []
        ]
    elif block["type"] == "choice":
        check["options"] = [
            {"text": text(option["text"]), "correct": bool(option.get("correct")), "explanation": option["explanation"].strip()}
            for option in block["options"]
        ]
    else:
        check["items"] = [{"text": text(item)} for item in block["items"]]
    checks.append(check)
print(json.dumps({"xp": lesson["xp"], "exercise": bool(lesson.get("exercise")), "checks": checks}))
`;

export type CheckAnswer = { value: string } | { options: string[] } | { items: string[] };

export interface LessonCheck {
  key: string;
  type: 'numeric' | 'choice' | 'ordering';
  revealAfter: number;
  /** numeric: the right number as written, and the editor's expected mistakes. */
  answer?: string;
  mistakes?: { value?: string; min?: string; max?: string; feedback: string }[];
  /** choice: every option, `correct` or not, with its explanation. */
  options?: { id: string; text: string; correct: boolean; explanation: string }[];
  /** ordering: the items in the right order. */
  items?: { id: string; text: string }[];
}

export interface LessonFile {
  xp: number;
  exercise: boolean;
  checks: LessonCheck[];
}

/** An option's or item's id as the server makes it (lessons/checks/base.py item_id). */
const itemId = (key: string, text: string) => createHash('sha256').update(`${key}\0${text}`).digest('hex').slice(0, 10);

const lessonFiles = new Map<string, LessonFile>();

/** content/transformers/lessons/<slug>.yaml: what its checks ask and their right answers. */
export function lessonFile(slug: string): LessonFile {
  const known = lessonFiles.get(slug);
  if (known) return known;
  const path = join(repo, 'content', 'transformers', 'lessons', `${slug}.yaml`);
  const lesson = JSON.parse(execFileSync(join(repo, '.venv', 'bin', 'python'), ['-c', READ_LESSON, path], { encoding: 'utf8' })) as LessonFile;
  for (const check of lesson.checks) {
    for (const option of check.options ?? []) option.id = itemId(check.key, option.text);
    for (const item of check.items ?? []) item.id = itemId(check.key, item.text);
  }
  lessonFiles.set(slug, lesson);
  return lesson;
}

export function rightAnswer(check: LessonCheck): CheckAnswer {
  if (check.type === 'numeric') return { value: check.answer! };
  if (check.type === 'choice') return { options: check.options!.filter((option) => option.correct).map((option) => option.id) };
  return { items: check.items!.map((item) => item.id) };
}

/** A wrong answer and the feedback the server gives it (null when the editor wrote none). */
export function wrongAnswer(check: LessonCheck): { answer: CheckAnswer; feedback: string | null } {
  if (check.type === 'numeric') {
    const mistake = check.mistakes?.find((each) => each.value !== undefined);
    return mistake ? { answer: { value: mistake.value! }, feedback: mistake.feedback } : { answer: { value: String(Number(check.answer) * 10 + 7) }, feedback: null };
  }
  if (check.type === 'choice') {
    const wrong = check.options!.find((option) => !option.correct)!;
    return { answer: { options: [wrong.id] }, feedback: wrong.explanation };
  }
  const [first, second, ...rest] = check.items!;
  return { answer: { items: [second.id, first.id, ...rest.map((item) => item.id)] }, feedback: `${rest.length} of ${check.items!.length} items are in the right place.` };
}

const csrfHeader = async (page: Page) => ({
  'X-CSRFToken': (await page.context().cookies()).find((cookie) => cookie.name === 'csrftoken')?.value ?? '',
});

/** The lesson's check block ids by key, from the API. */
async function checkIds(page: Page, slug: string): Promise<Map<string, number>> {
  const lesson = await (await page.request.get(`/api/v1/lessons/${slug}/`)).json();
  const blocks: { id: number; kind: string; check?: { key: string } }[] = lesson.blocks;
  return new Map(blocks.filter((block) => block.kind === 'check').map((block) => [block.check!.key, block.id]));
}

/**
 * Answers the lesson's first `count` checks (all by default) right through the API, as the
 * signed-in learner of `page`: for a spec that tests what comes after, not the answering.
 * Answers the last answer's body.
 */
export async function passChecksByApi(page: Page, slug: string, count?: number): Promise<Record<string, unknown>> {
  const ids = await checkIds(page, slug);
  let last: Record<string, unknown> = {};
  for (const check of lessonFile(slug).checks.slice(0, count)) {
    const answered = await page.request.post(`/api/v1/checks/${ids.get(check.key)}/answers`, {
      data: { answer: rightAnswer(check) },
      headers: await csrfHeader(page),
    });
    expect(answered.status(), await answered.text()).toBe(200);
    last = await answered.json();
    expect(last.correct, `${slug}: ${check.key} answered right`).toBe(true);
  }
  return last;
}

/**
 * Waits for the app to take over the lesson the server drew in its first answer (whose buttons
 * do nothing until then): the app's checks are numbered, the first answer's are not.
 */
export async function lessonAppReady(page: Page): Promise<void> {
  await expect(page.getByRole('heading', { name: /^Check 1 of \d+$/ })).toBeVisible();
}

/** Check `number` of the lesson's `total`, on the lesson page (the app's: see lessonAppReady). */
export const checkCard = (page: Page, number: number, total: number) => page.getByRole('region', { name: `Check ${number} of ${total}`, exact: true });

/** Puts `answer` in the check's control with the mouse: types the number, ticks the options, moves the items with their buttons. */
export async function fillAnswer(card: Locator, check: LessonCheck, answer: CheckAnswer): Promise<void> {
  if ('value' in answer) {
    await card.getByLabel('Your answer').fill(answer.value);
  } else if ('options' in answer) {
    const multiple = check.options!.filter((each) => each.correct).length > 1;
    for (const option of check.options!) {
      const control = card.getByRole(multiple ? 'checkbox' : 'radio', { name: option.text, exact: true });
      if (answer.options.includes(option.id)) await control.check();
      else if (multiple && (await control.isChecked())) await control.uncheck();
    }
  } else {
    const texts = new Map(check.items!.map((item) => [item.id, item.text]));
    for (const [place, id] of answer.items.entries()) {
      for (;;) {
        const order = await card.locator('li.ordering-item').evaluateAll((rows) => rows.map((row) => (row as HTMLElement).dataset.item));
        if (order.indexOf(id) <= place) break;
        await card.getByRole('button', { name: `Move ${texts.get(id)} up`, exact: true }).click();
        await expect(card.locator('li.ordering-item').nth(order.indexOf(id) - 1)).toHaveAttribute('data-item', id);
      }
    }
  }
}

/** Presses "Check answer" and waits for the verdict: `right` or `wrong`. */
export async function submitAnswer(page: Page, card: Locator, expected: 'right' | 'wrong'): Promise<void> {
  const id = (await card.getAttribute('id'))!.replace('block-', '');
  const graded = page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith(`/api/v1/checks/${id}/answers`));
  await card.getByRole('button', { name: 'Check answer' }).click();
  expect((await graded).status()).toBe(200);
  await expect(card.locator(`.check-result.${expected}`)).toBeVisible();
}

/**
 * Answers the lesson's checks right on its page (open), from check `from` (1-based) on, the
 * way a learner does: the control, then "Check answer", each celebrated.
 */
export async function passChecks(page: Page, slug: string, from = 1): Promise<void> {
  const { checks } = lessonFile(slug);
  for (const [index, check] of checks.entries()) {
    if (index + 1 < from) continue;
    const card = checkCard(page, index + 1, checks.length);
    await fillAnswer(card, check, rightAnswer(check));
    await submitAnswer(page, card, 'right');
  }
}

/** Moves the focus to `target` with Tab or Shift+Tab only, the way a keyboard user gets there. */
export async function tabTo(page: Page, target: Locator) {
  for (let presses = 0; presses < 200; presses += 1) {
    const where = await target.evaluate((element) => {
      const active = document.activeElement;
      if (active === element) return 0;
      if (!active || active === document.body) return 1;
      return active.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING ? 1 : -1;
    });
    if (where === 0) return;
    await page.keyboard.press(where > 0 ? 'Tab' : 'Shift+Tab');
  }
  throw new Error('the keyboard never reached the element');
}
