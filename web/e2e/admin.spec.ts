import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { django, expect, shot, test } from './fixtures';

// A content editor in the Django admin: reorders blocks by dragging, pastes a table from a
// spreadsheet, watches the Markdown preview, triages a report, reads the lesson's analytics.
const repo = join(import.meta.dirname, '..', '..');
// Tall enough that two blocks' headers are on screen together for the drag.
test.use({ viewport: { width: 1280, height: 1400 } });

const EDITOR = { email: 'e2e-editor@example.com', password: 'correct horse battery staple' };

test.beforeAll(() => {
  // An editor, a learner's report on the lesson's table block, and some progress to chart.
  django(`
from datetime import timedelta
from django.contrib.auth.models import Group
from django.utils import timezone
from accounts.models import User
from community.models import IssueReport
from lessons.models import Lesson
from progress.models import LessonCompletion
editor, _ = User.objects.get_or_create(email="${EDITOR.email}", defaults={"is_staff": True})
editor.is_staff = True
editor.set_password("${EDITOR.password}")
editor.save()
editor.groups.add(Group.objects.get(name="Content editors"))
lesson = Lesson.objects.get(slug="embedding-dimension")
table = lesson.blocks.filter(kind="table").first()
learners = [User.objects.get_or_create(email=f"e2e-learner-{n}@example.com")[0] for n in range(6)]
IssueReport.objects.get_or_create(lesson=lesson, reporter=learners[0], kind="incorrect",
    message="GPT-2's d_model is listed as 1024; its config.json says 768.",
    defaults={"block": table, "block_position": table.position})
lessons = list(lesson.quest.lessons.order_by("position", "id")[:5])
for n, learner in enumerate(learners):
    for k, done in enumerate(lessons[: n + 1]):
        LessonCompletion.objects.get_or_create(user=learner, lesson=done,
            defaults={"completed_at": timezone.now() - timedelta(days=7 * k + n)})
# Graded tables of the lesson's exercise: n_heads is the column learners get wrong.
from exercises.models import Submission
exercise = lesson.exercises.get()
for n, learner in enumerate(learners[:4]):
    cells = [{"column": "d_model", "verdict": "correct"},
             {"column": "n_heads", "verdict": "incorrect" if n % 2 else "correct"}]
    Submission.objects.get_or_create(exercise=exercise, user=learner, defaults={
        "format": "csv", "content": "model,d_model,n_heads", "status": "graded", "passed": True,
        "score": 1.0, "graded_at": timezone.now(),
        "feedback": {"rows": [{"row": 1, "name": "GPT-2", "model": "GPT-2", "duplicate": False,
                               "cells": cells}]}})
`);
});

test.afterAll(() => {
  // The test rewrote the d_model lesson's blocks; the specs after it read the lesson as its file
  // has it (blocks keep their ids, so answers and reports on them stay valid).
  const result = spawnSync(join(repo, '.venv', 'bin', 'python'), ['manage.py', 'load_curriculum', 'content/'], {
    cwd: repo,
    env: { ...process.env, DEBUG: '1' },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`manage.py load_curriculum failed: ${result.stderr}`);
});

test('an editor edits blocks, triages a report and reads the analytics', async ({ page, watch }) => {
  // The admin pages and two analytics pages: past a minute (1.0-1.1 min) on a loaded 2-core machine.
  test.setTimeout(120_000);
  // The admin's pages name no favicon: the browser's own /favicon.ico request is not theirs.
  watch.allow(/favicon\.ico/);
  await page.goto('/admin/login/');
  await page.getByLabel('Email address').or(page.getByLabel('E-mail address')).fill(EDITOR.email);
  await page.getByLabel('Password').fill(EDITOR.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('link', { name: 'How each lesson is doing' })).toBeVisible();

  // The lesson's blocks: open, each with its kind's fields only.
  await page.locator('#lessons-lesson').getByRole('link', { name: 'Lessons' }).click();
  await page.getByRole('link', { name: 'Embedding dimension (d_model)' }).click();
  const blocks = page.locator('#blocks-group .inline-related.has_original');
  await expect(blocks.first()).toBeVisible();
  await expect(blocks.first().locator('.field-source')).toBeHidden();
  await shot(page, 'admin-01-lesson-blocks');

  // Drag the second block above the first by its handle (admin-editing.spec.ts drags in steps).
  const secondId = await blocks.nth(1).getAttribute('id');
  await blocks.nth(1).locator('.lp-drag-handle').dragTo(blocks.first().locator('h3'), { targetPosition: { x: 100, y: 3 } });
  await expect(blocks.first()).toHaveAttribute('id', secondId!);
  await expect(blocks.first().locator('input.lp-block-position')).toHaveValue('1');

  // Paste a table from a spreadsheet (tab-separated): the grid shows it back.
  const tableBlock = page.locator('#blocks-group .inline-related', { has: page.locator('select[name$="-kind"] option[selected][value="table"]') });
  const tableText = tableBlock.locator('textarea.lp-table-text');
  await tableText.fill('Model\td_model\tLayers\nGPT-2\t768\t12\nLlama 3 8B\t4,096\t32\n');
  await expect(tableBlock.locator('.lp-table-summary')).toHaveText('3 columns, 2 rows');
  await expect(tableBlock.locator('.lp-table-grid td').first()).toHaveText('GPT-2');
  await shot(page, 'admin-02-table-pasted');

  // Markdown with a live preview, and a warning for what the sanitizer strips.
  const prose = page.locator('#blocks-group .inline-related', { has: page.locator('textarea.lp-markdown-source') }).first();
  await prose.locator('textarea.lp-markdown-source').fill('Width is **d_model**. <script>alert(1)</script>');
  await expect(prose.locator('.lp-markdown-html')).toHaveText('Width is d_model.');
  await expect(prose.locator('.lp-markdown-html strong')).toHaveText('d_model');
  await expect(prose.locator('.lp-markdown-problems')).toContainText('remove <script> and its content');
  await shot(page, 'admin-03-markdown-preview');
  // Saving refuses the unsafe Markdown on its field; fixed, the save goes through.
  await page.getByRole('button', { name: 'Save and continue editing' }).click();
  await expect(page.locator('.errorlist').first()).toContainText('Refused: remove <script> and its content');
  await page.locator('#blocks-group textarea.lp-markdown-source', { hasText: '<script>' }).fill('Width is **d_model**.');
  await page.getByRole('button', { name: 'Save and continue editing' }).click();
  await expect(page.locator('.messagelist')).toContainText('was changed successfully');

  // The lesson's preview beside the form.
  await page.getByRole('link', { name: 'Preview beside' }).click();
  await expect(page.frameLocator('#lp-lesson-preview iframe').getByRole('cell', { name: 'Llama 3 8B' })).toBeVisible();
  await shot(page, 'admin-04-preview-beside');

  // Triage the report: it names the lesson and links to its block.
  await page.goto('/admin/community/issuereport/');
  const report = page.getByRole('row', { name: /GPT-2's d_model/ });
  await expect(report.getByRole('link', { name: /Table #/ })).toHaveAttribute('href', /#block-\d+$/);
  await shot(page, 'admin-05-reports');
  await report.getByRole('link', { name: /GPT-2's d_model/ }).click();
  await expect(page.getByRole('heading', { name: /Incorrect content on “Embedding dimension/ })).toBeVisible();
  await page.getByLabel('Status').selectOption('triaged');
  await page.getByLabel('Assignee').selectOption({ label: EDITOR.email });
  await page.getByLabel('Internal note').fill('Checked config.json: the lesson is wrong.');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByRole('row', { name: /GPT-2's d_model/ })).toContainText('Triaged');

  // How the quest and the lesson are doing.
  await page.getByRole('link', { name: 'How each lesson is doing' }).first().click();
  await page.getByRole('link', { name: 'How its lessons are doing' }).first().click();
  await expect(page.locator('svg.insights-chart')).toHaveCount(3);
  await shot(page, 'admin-06-quest-analytics');
  await page.locator('svg.insights-chart a').first().click();
  await expect(page.getByRole('heading', { name: /What a language model actually does/ })).toBeVisible();
  // The lesson with the exercise: its drop-off and the column learners get wrong most.
  await page.goto('/admin/lessons/lesson/');
  await page.getByRole('link', { name: 'Embedding dimension (d_model)' }).click();
  await page.getByRole('link', { name: 'Analytics' }).click();
  // Figures are cached for minutes (and the shared Redis may hold an earlier run's): recompute.
  await page.getByText('How these figures are counted').click();
  await page.getByRole('link', { name: 'Recompute now' }).click();
  await expect(page.getByText(/Learners get n_heads wrong most \(50% of its cells wrong\)/)).toBeVisible();
  await expect(page.locator('svg.insights-chart')).toHaveCount(3);
  await shot(page, 'admin-07-lesson-analytics');
});
