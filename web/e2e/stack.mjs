// Starts the real stack for the browser tests and stops it on exit: migrations and the
// curriculum on the database in DATABASE_URL, a Celery worker on its own queue on the broker in
// REDIS_URL, and Django (DEBUG) serving the built app from web/dist on 127.0.0.1:E2E_PORT.
// Playwright's `webServer` runs it and waits for /readyz.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(web, '..');
const python = join(repo, '.venv', 'bin', 'python');
const celery = join(repo, '.venv', 'bin', 'celery');

for (const name of ['DATABASE_URL', 'REDIS_URL']) {
  if (!process.env[name]) {
    console.error(`e2e: ${name} must be set (the browser tests run on PostgreSQL and Redis), e.g.`);
    console.error('  DATABASE_URL=postgres://postgres@127.0.0.1:5432/lp_e2e REDIS_URL=redis://127.0.0.1:6379/2 npm run e2e');
    process.exit(2);
  }
}

const port = process.env.E2E_PORT ?? '18181';
const runDir = join(web, '.e2e-run');
const mailDir = join(runDir, 'mail');
rmSync(mailDir, { recursive: true, force: true });
rmSync(join(runDir, 'media'), { recursive: true, force: true });
mkdirSync(mailDir, { recursive: true });

const env = {
  ...process.env,
  DEBUG: '1',
  // A queue of this run's own, so workers of other runs on the shared Redis never take its tasks.
  CELERY_TASK_DEFAULT_QUEUE: `e2e-${randomBytes(4).toString('hex')}`,
  // E-mails as files: a test reads the verification or reset link from them.
  // Four slashes: django-environ drops the first of the path, which must stay absolute.
  EMAIL_URL: `filemail:///${mailDir}`,
  FRONTEND_URL: `http://127.0.0.1:${port}`,
  PUBLIC_API_URL: `http://127.0.0.1:${port}`,
  WEB_DIST_DIR: join(web, 'dist'),
  // Images uploaded in the admin: this run's own directory, never the repository's media/.
  MEDIA_ROOT: join(runDir, 'media'),
  // Several learners sign up and post from one address within a minute.
  THROTTLE_COMMENTS: process.env.THROTTLE_COMMENTS ?? '60/min',
  THROTTLE_REPORTS_ANON: process.env.THROTTLE_REPORTS_ANON ?? '60/hour',
  PYTHONUNBUFFERED: '1',
  // runserver answers each connection on a thread of its own, so persistent database
  // connections pile up one per thread until PostgreSQL refuses clients ("too many clients
  // already"); Django's docs say not to enable them on the development server.
  DB_CONN_MAX_AGE: '0',
};

function run(args) {
  const result = spawnSync(python, ['manage.py', ...args], { cwd: repo, env, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`e2e: manage.py ${args.join(' ')} failed`);
    process.exit(result.status ?? 1);
  }
}

// Each run starts from a new database (the scenarios count lessons, ranks and comments; the
// migrations seed levels, achievements and model references). Only a database named for these
// tests is recreated: never one given by mistake.
const database = new URL(process.env.DATABASE_URL).pathname.slice(1);
if (/e2e/.test(database)) {
  const recreate = spawnSync(
    python,
    [
      '-c',
      `import os, psycopg
from urllib.parse import urlsplit
url = urlsplit(os.environ["DATABASE_URL"])
name = url.path.lstrip("/")
with psycopg.connect(url._replace(path="/postgres").geturl(), autocommit=True) as conn:
    conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    conn.execute(f'CREATE DATABASE "{name}"')`,
    ],
    { cwd: repo, env, stdio: 'inherit' },
  );
  if (recreate.status !== 0) {
    console.error(`e2e: could not recreate database "${database}"`);
    process.exit(1);
  }
} else {
  console.warn(`e2e: keeping database "${database}" (its name has no "e2e"); results may depend on old data`);
}
run(['migrate', '--noinput', '-v', '0']);
run(['load_curriculum', 'content/']);

const children = [
  spawn(celery, ['-A', 'learning_platform', 'worker', '-l', 'WARNING', '--concurrency', '1', '-Q', env.CELERY_TASK_DEFAULT_QUEUE, '--without-gossip', '--without-mingle'], {
    cwd: repo,
    env,
    stdio: 'inherit',
  }),
  spawn(python, ['manage.py', 'runserver', '--noreload', `127.0.0.1:${port}`], { cwd: repo, env, stdio: 'inherit' }),
];
console.log(`e2e: Django on http://127.0.0.1:${port}, Celery queue ${env.CELERY_TASK_DEFAULT_QUEUE}, mail in ${mailDir}`);

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  setTimeout(() => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    process.exit(code);
  }, 3000).unref();
  Promise.all(children.map((child) => (child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : null))).then(() =>
    process.exit(code),
  );
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(0));
for (const child of children) {
  child.once('exit', (code) => {
    if (!stopping) {
      console.error(`e2e: a server process ended unexpectedly (exit ${code}); stopping the stack`);
      stop(1);
    }
  });
}
