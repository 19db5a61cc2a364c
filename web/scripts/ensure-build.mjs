// Builds dist/ when it is missing or older than any source file (the e2e tests serve dist/).
import { execSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const built = join(root, 'dist', 'index.html');

function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const sources = ['src', 'index.html', 'vite.config.ts', 'package-lock.json'].map((name) => join(root, name));
const stale = !existsSync(built) || Math.max(...sources.map(newest)) > statSync(built).mtimeMs;
if (stale) {
  console.log('dist/ is missing or stale: building');
  execSync('npm run build', { cwd: root, stdio: 'inherit' });
} else {
  console.log('dist/ is up to date');
}
