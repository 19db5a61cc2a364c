// Lighthouse (web/package.json pins 12.2.3) on pages of a running server: one uncounted warm-up
// run, then RUNS runs each, the default mobile profile (simulated slow 4G, 4x CPU slowdown), a
// fresh headless Chromium per run (CHROME_PATH, default /usr/bin/chromium). Prints each page's
// medians against the thresholds of issue 26 and the audits behind any category below 1; exits 1
// when a median misses. scripts/lighthouse.sh starts the production server and calls this.
//
//   node scripts/lighthouse.mjs --base http://127.0.0.1:18220 --runs 3 --out DIR /lessons/x /quests/y
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { failingAudits, figures, medians, misses, runLines, table } from './lighthouse-report.mjs';

const { values: options, positionals: paths } = parseArgs({
  options: {
    base: { type: 'string', default: 'http://127.0.0.1:8000' },
    runs: { type: 'string', default: '3' },
    out: { type: 'string', default: 'lighthouse-reports' },
  },
  allowPositionals: true,
});
const runs = Number(options.runs);
const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const cli = new URL('../node_modules/lighthouse/cli/index.js', import.meta.url).pathname;
const version = JSON.parse(readFileSync(new URL('../node_modules/lighthouse/package.json', import.meta.url))).version;
mkdirSync(options.out, { recursive: true });

const args = [
  cli,
  '--quiet',
  '--output=json',
  '--only-categories=performance,accessibility,seo,best-practices',
  '--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage',
];
// One uncounted run first: a machine's first Chromium start of the job reads the browser and its
// fonts from disk (seen in CI: one task of 789 ms in that run, 145 ms at most in the next two).
if (paths.length) {
  try {
    execFileSync(process.execPath, [...args, `${options.base}${paths[0]}`, `--output-path=${join(options.out, 'warm-up.json')}`], {
      stdio: 'inherit',
      env: { ...process.env, CHROME_PATH: chrome },
    });
  } catch (error) {
    console.error(`warm-up run: ${error.message.split('\n')[0]}`);
  }
}
const pages = [];
for (const path of paths) {
  const page = { path, runs: [], lhrs: [] };
  for (let run = 1; run <= runs; run += 1) {
    const name = `${path.replace(/^\/+/, '').replace(/[^a-z0-9]+/gi, '-') || 'home'}-${run}`;
    const output = join(options.out, `${name}.json`);
    // A run Lighthouse could not trace (NO_NAVSTART, a Chromium hiccup) is retried twice.
    let lhr;
    for (let attempt = 1; attempt <= 3 && !lhr; attempt += 1) {
      try {
        execFileSync(process.execPath, [...args, `${options.base}${path}`, `--output-path=${output}`], {
          stdio: 'inherit',
          env: { ...process.env, CHROME_PATH: chrome },
        });
        lhr = JSON.parse(readFileSync(output, 'utf8'));
        if (lhr.runtimeError) throw new Error(`${lhr.runtimeError.code}: ${lhr.runtimeError.message}`);
      } catch (error) {
        lhr = undefined;
        console.error(`${path} run ${run}, attempt ${attempt}: ${error.message.split('\n')[0]}`);
      }
    }
    if (!lhr) process.exit(2);
    page.runs.push(figures(lhr));
    page.lhrs.push(lhr);
    const f = page.runs.at(-1);
    console.log(`${path} run ${run}/${runs}: perf ${f.performance} LCP ${f.lcp.toFixed(2)} s CLS ${f.cls.toFixed(3)} TBT ${Math.round(f.tbt)} ms (host benchmark index ${Math.round(lhr.environment?.benchmarkIndex ?? 0)})`);
  }
  pages.push(page);
}

console.log(`\nLighthouse ${version}, mobile profile (simulated slow 4G, 4x CPU), median of ${runs} runs, ${options.base}`);
console.log(table(pages));
let failed = false;
for (const page of pages) {
  console.log(`\n${page.path}: every run`);
  console.log(runLines(page).join('\n'));
  failed ||= misses(medians(page.runs)).length > 0;
  // The audits of the run whose performance score is the median: why a category is below 1.
  const order = page.runs.map((run, i) => [run.performance, i]).sort((a, b) => a[0] - b[0]);
  const lhr = page.lhrs[order[Math.floor(order.length / 2)][1]];
  const audits = failingAudits(lhr);
  if (audits.length) console.log(`  audits below par (run ${page.lhrs.indexOf(lhr) + 1}):`);
  for (const a of audits) console.log(`    ${a.category.padEnd(14)} ${a.id}: ${a.title}${a.display ? ` (${a.display})` : ''}`);
}
console.log(`\nJSON reports in ${options.out}`);
// LIGHTHOUSE_REPORT_ONLY=1: print the verdict, never fail on it (a run that did not finish still does).
if (failed && process.env.LIGHTHOUSE_REPORT_ONLY === '1') {
  console.log('thresholds missed: reported only (LIGHTHOUSE_REPORT_ONLY=1)');
  failed = false;
}
process.exit(failed ? 1 : 0);
