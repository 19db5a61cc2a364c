// A server whose clock a spec sets: e2e/clock_server.py (test-only) runs Django on a port of its
// own and moves the process's clock, before each request, to the instant the spec writes in a
// file. Its environment is the stack's (stack.mjs) minus Redis: tasks run in-process, on the fake
// clock, and no worker or cache outside this process sees another time.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { Page } from '@playwright/test';

const web = join(import.meta.dirname, '..');
const repo = join(web, '..');
const runDir = join(web, '.e2e-run');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface ClockServer {
  origin: string;
  /** Sets the server's clock from its next request on (an instant with its offset). */
  setServerClock: (instant: string) => void;
  /** Sets the server's clock and the page's. */
  setClock: (page: Page, instant: string) => Promise<void>;
  stop: () => void;
}

/** Starts the clock server at `instant`; a spec's file name keeps its clock apart from others'. */
export async function startClockServer(name: string, instant: string): Promise<ClockServer> {
  mkdirSync(runDir, { recursive: true });
  const clockFile = join(runDir, `clock-${name}`);
  const setServerClock = (at: string) => writeFileSync(clockFile, at);
  setServerClock(instant);
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DEBUG: '1',
    E2E_CLOCK_FILE: clockFile,
    EMAIL_URL: 'dummymail://',
    FRONTEND_URL: origin,
    PUBLIC_API_URL: origin,
    WEB_DIST_DIR: join(web, 'dist'),
    EMBEDDED_SCHEDULER: '0',
    PYTHONUNBUFFERED: '1',
  };
  for (const variable of ['REDIS_URL', 'CACHE_URL', 'BROKER_URL', 'LEADERBOARD_REDIS_URL']) delete env[variable];
  const server: ChildProcess = spawn(join(repo, '.venv', 'bin', 'python'), [join(web, 'e2e', 'clock_server.py'), `127.0.0.1:${port}`], {
    cwd: repo,
    env,
    stdio: 'inherit',
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const ready = await fetch(`${origin}/readyz`).then((answer) => answer.status === 200, () => false);
    if (ready) break;
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`the clock server did not start on ${origin}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    origin,
    setServerClock,
    async setClock(page, at) {
      setServerClock(at);
      await page.clock.setFixedTime(new Date(at));
    },
    stop() {
      if (server.exitCode === null) server.kill('SIGTERM');
    },
  };
}
