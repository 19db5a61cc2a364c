// Test-only: a fake LTI 1.3 platform (an LMS) that a browser walks through, for lti-launch.spec.ts.
// One Node http server on 127.0.0.1 answers what a platform serves: its key set (JWKS), its OIDC
// authorization endpoint (an auto-submitting form POSTing a signed id_token to the tool), its
// OAuth2 token endpoint and the line items' score service (AGS), the deep linking return URL,
// and course pages that embed the tool in a frame as Moodle's or Canvas's do. It signs with an
// RSA key of its own (RS256) and verifies what the tool signs against the tool's JWKS.
import { createPublicKey, generateKeyPairSync, randomUUID, sign, verify, type KeyObject, type webcrypto } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const CLAIM = 'https://purl.imsglobal.org/spec/lti/claim/';
const AGS_CLAIM = 'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint';
const DL_CLAIM = 'https://purl.imsglobal.org/spec/lti-dl/claim/';
const SCORE_SCOPE = 'https://purl.imsglobal.org/spec/lti-ags/scope/score';
const LINEITEM_SCOPE = 'https://purl.imsglobal.org/spec/lti-ags/scope/lineitem';
const ROLE = 'http://purl.imsglobal.org/vocab/lis/v2/membership#';

export const CLIENT_ID = 'e2e-tool';
export const DEPLOYMENT_ID = 'e2e-deployment-1';

/** Someone signed in at the LMS, as its `sub` tells the tool. */
export interface PlatformUser {
  id: string;
  name: string;
  role: 'Learner' | 'Instructor';
}

export const LEARNER: PlatformUser = { id: 'lms-user-4711', name: 'Ada Lovelace', role: 'Learner' };
export const TEACHER: PlatformUser = { id: 'lms-user-42', name: 'Grace Hopper', role: 'Instructor' };

/** An activity of the course: a resource link to the tool, with its gradebook column. */
export interface Activity {
  id: string;
  title: string;
  custom: Record<string, string>;
  lineitem: string | null;
}

export interface Jwt {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
}

export interface PlatformRecord {
  /** The OIDC authorization requests the browser brought from the tool's login. */
  authRequests: Record<string, string>[];
  /** The token requests, with the tool's client assertion verified. */
  tokenRequests: { form: Record<string, string>; assertion: Jwt }[];
  /** The scores the tool posted, by line item path. */
  scores: { path: string; authorization: string; contentType: string; score: Record<string, unknown> }[];
  /** The tool's verified LtiDeepLinkingResponse messages. */
  deepLinks: Jwt[];
  /** What the platform refused, and why (a test expects none). */
  errors: string[];
}

export interface FakePlatform extends PlatformRecord {
  /** http://127.0.0.1:<port>: the issuer, and where the tool fetches keys and posts scores. */
  origin: string;
  port: number;
  activities: Activity[];
  stop: () => Promise<void>;
}

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

function signJwt(claims: Record<string, unknown>, key: KeyObject, kid: string): string {
  const input = `${b64url(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid }))}.${b64url(JSON.stringify(claims))}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

/** Verifies an RS256 JWT against a JWKS URL (the tool's) and its expiry; throws when it does not hold. */
async function verifyJwt(token: string, jwksUrl: string): Promise<Jwt> {
  const [header64, claims64, signature64] = token.split('.');
  const header = JSON.parse(Buffer.from(header64, 'base64url').toString()) as Record<string, unknown>;
  const claims = JSON.parse(Buffer.from(claims64, 'base64url').toString()) as Record<string, unknown>;
  if (header.alg !== 'RS256') throw new Error(`alg ${String(header.alg)}`);
  const { keys } = (await (await fetch(jwksUrl)).json()) as { keys: (webcrypto.JsonWebKey & { kid: string })[] };
  const jwk = keys.find((each) => each.kid === header.kid);
  if (!jwk) throw new Error(`no key ${String(header.kid)} in ${jwksUrl}`);
  const ok = verify('sha256', Buffer.from(`${header64}.${claims64}`), createPublicKey({ key: jwk, format: 'jwk' }), Buffer.from(signature64, 'base64url'));
  if (!ok) throw new Error('bad signature');
  if (typeof claims.exp !== 'number' || claims.exp * 1000 < Date.now()) throw new Error('expired');
  return { header, claims };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

const STYLE = `
body { margin: 0; font: 15px/1.5 system-ui, sans-serif; color: #1f2933; background: #f4f5f7; }
header { background: #7a1f3d; color: #fff; padding: .7rem 1.5rem; display: flex; justify-content: space-between; }
header strong { font-size: 1.1rem; }
nav { background: #fff; border-bottom: 1px solid #d9dde3; padding: .5rem 1.5rem; font-size: .9rem; }
main { padding: 1rem 1.5rem; max-width: 70rem; }
.card { background: #fff; border: 1px solid #d9dde3; border-radius: .4rem; padding: 1rem 1.25rem; margin: 1rem 0; }
a { color: #0b5cad; }
.button { display: inline-block; padding: .45rem .9rem; background: #0b5cad; color: #fff; border-radius: .3rem; text-decoration: none; }
iframe { width: 100%; height: 420px; border: 1px solid #d9dde3; background: #fff; }
table { border-collapse: collapse; } td, th { border: 1px solid #d9dde3; padding: .3rem .7rem; text-align: left; }
`;

function lmsPage(title: string, user: PlatformUser, content: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Northside LMS</title>
<style>${STYLE}</style></head><body>
<header><strong>Northside LMS</strong><span>${escapeHtml(user.name)} (${user.role === 'Instructor' ? 'teacher' : 'learner'})</span></header>
<nav aria-label="Breadcrumb"><a href="/course?as=${user === TEACHER ? 'teacher' : 'learner'}">Transformers, spring term</a> › ${escapeHtml(title)}</nav>
<main>${content}</main></body></html>`;
}

/**
 * Starts the platform. `tool` is the tool's origin (its login, launch and JWKS URLs are the
 * documented ones under it); `activities` are the course's resource links to the tool.
 */
export async function startPlatform(tool: string, activities: Omit<Activity, 'lineitem'>[]): Promise<FakePlatform> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = `lms-key-${randomUUID()}`;
  const jwks = { keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' }] };
  const launchUrl = `${tool}/lti/launch/`;
  const toolJwks = `${tool}/lti/jwks.json`;
  const accessToken = randomUUID();
  const platform: FakePlatform = {
    origin: '',
    port: 0,
    activities: [],
    authRequests: [],
    tokenRequests: [],
    scores: [],
    deepLinks: [],
    errors: [],
    stop: async () => undefined,
  };
  let lineitems = 0;
  const newLineitem = () => `${platform.origin}/lineitems/${(lineitems += 1)}`;

  /** The tool's login initiation URL for a user and a message (an activity's id, or "deep-link"). */
  const loginUrl = (user: PlatformUser, hint: string) =>
    `${tool}/lti/login/?${new URLSearchParams({
      iss: platform.origin,
      client_id: CLIENT_ID,
      login_hint: user.id,
      lti_message_hint: hint,
      lti_deployment_id: DEPLOYMENT_ID,
      target_link_uri: launchUrl,
    })}`;

  function idToken(user: PlatformUser, nonce: string, hint: string): string | null {
    const now = Math.floor(Date.now() / 1000);
    const claims: Record<string, unknown> = {
      iss: platform.origin,
      aud: CLIENT_ID,
      sub: user.id,
      iat: now,
      exp: now + 300,
      nonce,
      name: user.name,
      [`${CLAIM}version`]: '1.3.0',
      [`${CLAIM}deployment_id`]: DEPLOYMENT_ID,
      [`${CLAIM}target_link_uri`]: launchUrl,
      [`${CLAIM}roles`]: [`${ROLE}${user.role}`],
      [`${CLAIM}context`]: { id: 'course-7', label: 'TRF', title: 'Transformers, spring term' },
      [`${CLAIM}tool_platform`]: { guid: 'northside-lms', name: 'Northside LMS' },
      [`${CLAIM}launch_presentation`]: { document_target: 'iframe', return_url: `${platform.origin}/course` },
    };
    if (hint === 'deep-link') {
      claims[`${CLAIM}message_type`] = 'LtiDeepLinkingRequest';
      claims[`${DL_CLAIM}deep_linking_settings`] = {
        deep_link_return_url: `${platform.origin}/deep-link-return`,
        accept_types: ['ltiResourceLink'],
        accept_presentation_document_targets: ['iframe', 'window'],
        accept_multiple: false,
        data: 'course-7-section-2',
      };
      return signJwt(claims, privateKey, kid);
    }
    const activity = platform.activities.find((each) => each.id === hint);
    if (!activity) return null;
    claims[`${CLAIM}message_type`] = 'LtiResourceLinkRequest';
    claims[`${CLAIM}resource_link`] = { id: activity.id, title: activity.title };
    claims[`${CLAIM}custom`] = activity.custom;
    if (activity.lineitem) {
      claims[AGS_CLAIM] = { scope: [LINEITEM_SCOPE, SCORE_SCOPE], lineitem: activity.lineitem, lineitems: `${platform.origin}/lineitems` };
    }
    return signJwt(claims, privateKey, kid);
  }

  const users = new Map([LEARNER, TEACHER].map((user) => [user.id, user]));

  function html(response: ServerResponse, status: number, text: string) {
    response.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    response.end(text);
  }
  function json(response: ServerResponse, status: number, data: unknown) {
    response.writeHead(status, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify(data));
  }
  function refuse(response: ServerResponse, why: string) {
    platform.errors.push(why);
    html(response, 400, `<!doctype html><html lang="en"><head><title>Refused</title></head><body><p>${escapeHtml(why)}</p></body></html>`);
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', platform.origin);
    const path = url.pathname;
    if (request.method === 'GET' && path === '/favicon.ico') {
      response.writeHead(204).end();
    } else if (request.method === 'GET' && path === '/jwks') {
      json(response, 200, jwks);
    } else if (request.method === 'GET' && path === '/course') {
      // The course page: its activities and, for the teacher, "add an activity" (deep linking).
      const user = url.searchParams.get('as') === 'teacher' ? TEACHER : LEARNER;
      const who = user === TEACHER ? 'teacher' : 'learner';
      const items = platform.activities
        .map((activity) => `<li><a href="/course/activity/${encodeURIComponent(activity.id)}?as=${who}">${escapeHtml(activity.title)}</a>${activity.lineitem ? ' <small>(graded)</small>' : ''}</li>`)
        .join('');
      const add = user === TEACHER ? `<p><a class="button" href="/course/add?as=teacher">Add an activity from the course tool</a></p>` : '';
      html(response, 200, lmsPage('Course', user, `<h1>Transformers, spring term</h1><section class="card" aria-labelledby="week"><h2 id="week">Week 2: position and attention</h2><ul>${items}</ul>${add}</section>`));
    } else if (request.method === 'GET' && path.startsWith('/course/activity/')) {
      // An activity's page embeds the tool: the frame starts at the tool's login initiation.
      const user = url.searchParams.get('as') === 'teacher' ? TEACHER : LEARNER;
      const activity = platform.activities.find((each) => each.id === decodeURIComponent(path.slice('/course/activity/'.length)));
      if (!activity) return refuse(response, `no activity ${path}`);
      html(
        response,
        200,
        lmsPage(
          activity.title,
          user,
          `<h1>${escapeHtml(activity.title)}</h1><p>An activity from the course tool. Your grade goes to the gradebook.</p>
<iframe title="Course tool: ${escapeHtml(activity.title)}" src="${escapeHtml(loginUrl(user, activity.id))}" allow="clipboard-write"></iframe>`,
        ),
      );
    } else if (request.method === 'GET' && path === '/course/add') {
      html(
        response,
        200,
        lmsPage(
          'Add an activity',
          TEACHER,
          `<h1>Add an activity</h1><p>Pick content in the course tool; it comes back here as a new activity.</p>
<iframe title="Course tool: select content" src="${escapeHtml(loginUrl(TEACHER, 'deep-link'))}"></iframe>`,
        ),
      );
    } else if (request.method === 'GET' && path === '/gradebook') {
      const rows = platform.scores
        .map(({ path: where, score }) => `<tr><td>${escapeHtml(String(score.userId))}</td><td>${escapeHtml(where)}</td><td>${String(score.scoreGiven)} / ${String(score.scoreMaximum)}</td><td>${escapeHtml(String(score.activityProgress))}</td></tr>`)
        .join('');
      html(response, 200, lmsPage('Gradebook', TEACHER, `<h1>Gradebook</h1><table><caption>Scores the course tool sent</caption><thead><tr><th scope="col">User</th><th scope="col">Line item</th><th scope="col">Score</th><th scope="col">Progress</th></tr></thead><tbody>${rows}</tbody></table>`));
    } else if (request.method === 'GET' && path === '/auth') {
      // The OIDC authorization endpoint: checks what the tool's login sent, answers the launch.
      const params = Object.fromEntries(url.searchParams);
      platform.authRequests.push(params);
      const user = users.get(params.login_hint);
      const expected: Record<string, string> = { scope: 'openid', response_type: 'id_token', response_mode: 'form_post', prompt: 'none', client_id: CLIENT_ID, redirect_uri: launchUrl };
      for (const [name, value] of Object.entries(expected)) if (params[name] !== value) return refuse(response, `auth: ${name} is ${params[name]}, not ${value}`);
      if (!params.state || !params.nonce) return refuse(response, 'auth: no state or nonce');
      if (!user) return refuse(response, `auth: unknown login_hint ${params.login_hint}`);
      const token = idToken(user, params.nonce, params.lti_message_hint ?? '');
      if (!token) return refuse(response, `auth: unknown lti_message_hint ${params.lti_message_hint}`);
      html(
        response,
        200,
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Launching…</title></head><body>
<form id="launch" method="post" action="${escapeHtml(params.redirect_uri)}">
<input type="hidden" name="id_token" value="${escapeHtml(token)}"><input type="hidden" name="state" value="${escapeHtml(params.state)}">
<noscript><button type="submit">Continue</button></noscript></form>
<script>document.getElementById('launch').submit();</script></body></html>`,
      );
    } else if (request.method === 'POST' && path === '/token') {
      const form = Object.fromEntries(new URLSearchParams(await body(request)));
      try {
        if (form.grant_type !== 'client_credentials') throw new Error(`grant_type ${form.grant_type}`);
        if (form.client_assertion_type !== 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer') throw new Error(`client_assertion_type ${form.client_assertion_type}`);
        const assertion = await verifyJwt(form.client_assertion, toolJwks);
        if (assertion.claims.iss !== CLIENT_ID || assertion.claims.sub !== CLIENT_ID) throw new Error('client assertion: iss/sub is not the client id');
        platform.tokenRequests.push({ form, assertion });
      } catch (error) {
        platform.errors.push(`token: ${String(error)}`);
        return json(response, 400, { error: 'invalid_client' });
      }
      json(response, 200, { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope: form.scope });
    } else if (request.method === 'POST' && /^\/lineitems\/\d+\/scores$/.test(path)) {
      const authorization = request.headers.authorization ?? '';
      const raw = await body(request);
      if (authorization !== `Bearer ${accessToken}`) {
        platform.errors.push(`scores: authorization ${authorization}`);
        return json(response, 401, { error: 'unauthorized' });
      }
      platform.scores.push({ path, authorization, contentType: request.headers['content-type'] ?? '', score: JSON.parse(raw) as Record<string, unknown> });
      json(response, 200, {});
    } else if (request.method === 'POST' && path === '/deep-link-return') {
      // The tool's signed LtiDeepLinkingResponse: verified, and its resource link added to the course.
      const form = new URLSearchParams(await body(request));
      let message: Jwt;
      try {
        message = await verifyJwt(form.get('JWT') ?? '', toolJwks);
        // A JWT's aud is one string or a list of them (pylti1p3 sends a list).
        if (message.claims.iss !== CLIENT_ID || ![message.claims.aud].flat().includes(platform.origin)) throw new Error(`iss ${String(message.claims.iss)}, aud ${String(message.claims.aud)}`);
        if (message.claims.nonce === undefined) throw new Error('no nonce');
      } catch (error) {
        return refuse(response, `deep link return: ${String(error)}`);
      }
      platform.deepLinks.push(message);
      const items = (message.claims[`${DL_CLAIM}content_items`] ?? []) as { type: string; title: string; custom?: Record<string, string>; lineItem?: unknown }[];
      const added = items.filter((item) => item.type === 'ltiResourceLink');
      for (const item of added) platform.activities.push({ id: `link-${randomUUID().slice(0, 8)}`, title: item.title, custom: item.custom ?? {}, lineitem: item.lineItem ? newLineitem() : null });
      html(
        response,
        200,
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Added</title><style>${STYLE}</style></head><body><main>
<h1>Added to the course</h1><ul>${added.map((item) => `<li>${escapeHtml(item.title)}${item.lineItem ? ' (graded)' : ''}</li>`).join('')}</ul>
<p><a href="/course?as=teacher" target="_top">Back to the course</a></p></main></body></html>`,
      );
    } else {
      json(response, 404, { error: `no ${request.method} ${path}` });
    }
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      platform.errors.push(`${request.method} ${request.url}: ${String(error)}`);
      if (!response.headersSent) json(response, 500, { error: String(error) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  platform.port = (server.address() as AddressInfo).port;
  platform.origin = `http://127.0.0.1:${platform.port}`;
  for (const activity of activities) platform.activities.push({ ...activity, lineitem: newLineitem() });
  platform.stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return platform;
}
