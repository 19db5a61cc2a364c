import type { Page } from '@playwright/test';
import { axeScan, checkCard, django, expect, fillAnswer, lessonAppReady, lessonFile, rightAnswer, shot, submitAnswer, test, watchConsole } from './fixtures';
import { CLIENT_ID, DEPLOYMENT_ID, LEARNER, startPlatform, type Activity, type FakePlatform } from './lti-platform';

// Issue 42, walked in Chromium: an LMS (the fake platform of lti-platform.ts, on a port of its
// own) embeds the tool. A learner's launch of a lesson runs the real LTI 1.3 exchange - the
// tool's login initiation, the platform's OIDC authorization answering a signed id_token, the
// launch POST - signs them in by issuer + subject and opens the lesson; one check passed sends
// one score back through the Celery worker (AGS: token, then score). A teacher adds a lesson by
// deep linking. A frame the browser keeps cookies out of is offered a new window.
//
// The tool runs over HTTP here, so its state cookie cannot be `SameSite=None; Secure` as in
// production (docs/integrations.md): the LMS is served from 127.0.0.1 (the tool's site, another
// port) for the frame to keep the cookie, and from localhost for the frame to lose it.
const tool = `http://127.0.0.1:${process.env.E2E_PORT ?? '18181'}`;
const LESSON = 'alibi';
const LESSON_TITLE = 'ALiBi: attention with linear biases';
const ADDED = 'Causal masking: no peeking ahead';
const SCORE_SCOPE = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';

test.describe.configure({ mode: 'serial' });
test.use({ viewport: { width: 1280, height: 900 } });

let platform: FakePlatform;
let activity: Activity;

test.beforeAll(async () => {
  platform = await startPlatform(tool, [{ id: 'link-alibi', title: LESSON_TITLE, custom: { lesson: LESSON } }]);
  activity = platform.activities[0];
  // The operator's steps (docs/integrations.md): a tool key, then the platform and its
  // deployment, as the admin's "LTI registrations" page saves them.
  django(`
from django.core.management import call_command
from lti_tool.models import Key, LtiDeployment, LtiRegistration
if not Key.objects.active().exists():
    call_command("rotate_keys")
registration, _ = LtiRegistration.objects.update_or_create(
    issuer="${platform.origin}", client_id="${CLIENT_ID}",
    defaults={"name": "Northside LMS", "auth_url": "${platform.origin}/auth",
              "token_url": "${platform.origin}/token", "keyset_url": "${platform.origin}/jwks",
              "is_active": True})
LtiDeployment.objects.update_or_create(registration=registration, deployment_id="${DEPLOYMENT_ID}",
                                       defaults={"is_active": True})
print(registration.pk)
`);
});

test.afterAll(async () => {
  await platform?.stop();
});

test.afterEach(() => {
  expect(platform.errors, 'what the fake platform refused').toEqual([]);
});

/** A page the tool or the web app opens in a new window, watched for console errors like the test's own. */
async function popupOf(page: Page, click: () => Promise<void>) {
  const popped = page.waitForEvent('popup');
  await click();
  const popup = await popped;
  return { popup, watch: watchConsole(popup) };
}

const lmsFrame = (page: Page) => page.frameLocator('iframe[title^="Course tool"]');

test('a learner launches a lesson from the LMS, is signed in by the launch and their score goes back', async ({ page, watch }) => {
  test.setTimeout(120_000);
  await page.goto(`${platform.origin}/course?as=learner`);
  await expect(page.getByRole('heading', { name: 'Transformers, spring term' })).toBeVisible();
  await shot(page, 'lti-01-lms-course');

  // The activity's page embeds the tool at its login initiation URL: the tool checks the frame
  // keeps its cookie, sends the browser to the platform's authorization endpoint with a state
  // and a nonce, and the platform's form POSTs the signed id_token to the launch URL.
  await page.getByRole('link', { name: LESSON_TITLE }).click();
  const frame = lmsFrame(page);
  await expect(frame.getByRole('heading', { name: 'Your activity is ready' })).toBeVisible();
  expect(platform.authRequests).toHaveLength(1);
  expect(platform.authRequests[0]).toMatchObject({ login_hint: LEARNER.id, lti_message_hint: activity.id, client_id: CLIENT_ID, redirect_uri: `${tool}/lti/launch/` });
  await shot(page, 'lti-02-lms-activity-ready');
  await axeScan(page, 'lti-open-in-window');

  // The web app does not run in frames: the learner opens it in a window, signed in there.
  const { popup, watch: popupWatch } = await popupOf(page, () => frame.getByRole('link', { name: 'Open in a new window' }).click());
  await popup.waitForURL(`${tool}/lessons/${LESSON}`);
  await lessonAppReady(popup);
  await expect(popup.getByRole('heading', { level: 1, name: LESSON_TITLE })).toBeVisible();
  await expect(popup.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await shot(popup, 'lti-03-lesson-signed-in');
  // An account of its own, keyed by the platform's issuer and the learner's subject there.
  const email = django(`
from lti.models import LtiAccount
print(LtiAccount.objects.select_related("user").get(issuer="${platform.origin}", subject="${LEARNER.id}").user.email)`);
  expect(email).toMatch(/^lti-[0-9a-f]{32}@lti\.invalid$/);

  // One check passed of the lesson's three: the worker posts the score 1/3 to the line item.
  const { checks } = lessonFile(LESSON);
  const card = checkCard(popup, 1, checks.length);
  await fillAnswer(card, checks[0], rightAnswer(checks[0]));
  await submitAnswer(popup, card, 'right');
  await shot(popup, 'lti-04-check-passed');
  await expect.poll(() => platform.scores.length, { timeout: 30_000, message: 'a score posted to the platform' }).toBe(1);
  // Exactly one: nothing else comes after a while (a retry would re-send the same score).
  await popup.waitForTimeout(3000);
  expect(platform.scores).toHaveLength(1);
  const [{ path, contentType, score }] = platform.scores;
  expect(path).toBe(`${new URL(activity.lineitem!).pathname}/scores`);
  expect(contentType).toBe('application/vnd.ims.lis.v1.score+json');
  expect(score).toMatchObject({
    userId: LEARNER.id,
    scoreGiven: Number((1 / checks.length).toFixed(4)),
    scoreMaximum: 1,
    gradingProgress: 'FullyGraded',
    activityProgress: 'InProgress',
  });
  expect(Number.isNaN(Date.parse(String(score.timestamp)))).toBe(false);
  // The worker's token request carried the tool's client assertion (verified by the platform
  // against the tool's JWKS) and asked for the score scope.
  expect(platform.tokenRequests.length).toBeGreaterThanOrEqual(1);
  expect(platform.tokenRequests[0].form.scope).toContain(SCORE_SCOPE);
  expect(platform.tokenRequests[0].assertion.claims.aud).toBe(`${platform.origin}/token`);

  await page.goto(`${platform.origin}/gradebook`);
  await expect(page.getByRole('cell', { name: `${Number((1 / checks.length).toFixed(4))} / 1` })).toBeVisible();
  await shot(page, 'lti-05-lms-gradebook');
  expect([...watch.problems, ...popupWatch.problems], 'console errors in the LMS, its frame and the lesson window').toEqual([]);
});

test('a teacher adds a lesson to the course by deep linking', async ({ page, watch }) => {
  await page.goto(`${platform.origin}/course?as=teacher`);
  await page.getByRole('link', { name: 'Add an activity from the course tool' }).click();
  const frame = lmsFrame(page);
  await expect(frame.getByRole('heading', { name: 'Add a quest or a lesson' })).toBeVisible();
  await frame.getByRole('radio', { name: ADDED }).check();
  await shot(page, 'lti-06-deep-link-pick');
  await axeScan(page, 'lti-deep-link-pick');

  // The tool's page POSTs its signed LtiDeepLinkingResponse to the platform's return URL.
  await frame.getByRole('button', { name: 'Add to the course' }).click();
  await expect(frame.getByRole('heading', { name: 'Added to the course' })).toBeVisible();
  expect(platform.deepLinks).toHaveLength(1);
  const { claims } = platform.deepLinks[0];
  expect(claims).toMatchObject({
    iss: CLIENT_ID,
    aud: [platform.origin],
    'https://purl.imsglobal.org/spec/lti/claim/message_type': 'LtiDeepLinkingResponse',
    'https://purl.imsglobal.org/spec/lti/claim/deployment_id': DEPLOYMENT_ID,
    'https://purl.imsglobal.org/spec/lti-dl/claim/data': 'course-7-section-2',
  });
  const items = claims['https://purl.imsglobal.org/spec/lti-dl/claim/content_items'] as Record<string, unknown>[];
  expect(items).toHaveLength(1);
  expect(items[0]).toMatchObject({ type: 'ltiResourceLink', title: ADDED, url: `${tool}/lti/launch/`, custom: { lesson: 'causal-masking' }, lineItem: { scoreMaximum: 1 } });
  await shot(page, 'lti-07-deep-link-returned');

  await frame.getByRole('link', { name: 'Back to the course' }).click();
  await expect(page.getByRole('link', { name: ADDED })).toBeVisible();
  await shot(page, 'lti-08-lms-course-lesson-added');
  expect(watch.problems, 'console errors in the LMS and the tool\'s frame').toEqual([]);
});

test('a frame that keeps no cookie is offered a new window, where the launch runs', async ({ page, watch }) => {
  // The LMS on another site (localhost): the tool's frame is third-party and its cookie is refused.
  await page.goto(`http://localhost:${platform.port}/course/activity/${activity.id}?as=learner`);
  const frame = lmsFrame(page);
  await expect(frame.getByText('Your browser does not let this course keep its sign-in')).toBeVisible();
  expect(platform.authRequests.filter((request) => request.lti_message_hint === activity.id)).toHaveLength(1);
  await shot(page, 'lti-09-frame-without-cookies');

  // The login runs again first-party in the new window, and the launch goes through there
  // straight to the lesson: a window of its own is not asked to open another.
  const { popup, watch: popupWatch } = await popupOf(page, () => frame.getByRole('link', { name: 'Open the course in a new window.' }).click());
  await popup.waitForURL(`${tool}/lessons/${LESSON}`);
  expect(platform.authRequests.filter((request) => request.lti_message_hint === activity.id)).toHaveLength(2);
  await lessonAppReady(popup);
  await expect(popup.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await shot(popup, 'lti-10-new-window-launch');
  expect([...watch.problems, ...popupWatch.problems], 'console errors in the LMS and the new window').toEqual([]);
});

test('a launch whose state cookie the browser does not hold is refused with a page that says why', async ({ page, watch }) => {
  // The platform's answer to a login this browser never started: its form POSTs the id_token
  // with a state the tool set no cookie for (as when a browser drops the cookie on the way).
  watch.allow(/^403 .*\/lti\/launch\/$/);
  const auth = new URLSearchParams({
    scope: 'openid',
    response_type: 'id_token',
    response_mode: 'form_post',
    prompt: 'none',
    client_id: CLIENT_ID,
    redirect_uri: `${tool}/lti/launch/`,
    state: 'state-from-another-browser',
    nonce: 'nonce-from-another-browser',
    login_hint: LEARNER.id,
    lti_message_hint: activity.id,
  });
  const refused = page.waitForResponse((response) => response.url() === `${tool}/lti/launch/`);
  await page.goto(`${platform.origin}/auth?${auth}`);
  expect((await refused).status()).toBe(403);
  await expect(page.getByRole('heading', { name: 'This launch could not be accepted' })).toBeVisible();
  await expect(page.getByText('state_mismatch')).toBeVisible();
  await shot(page, 'lti-11-refused-state-mismatch');
  await axeScan(page, 'lti-refused');
});
