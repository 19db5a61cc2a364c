import { contentEditor, django, expect, shot, signInToAdmin, test } from './fixtures';

// Issue 39, "Media": a content editor uploads an image in the admin (alt text required), puts
// its Markdown into a lesson block, and a learner sees it on the lesson page, on a phone too.
test.use({ viewport: { width: 1280, height: 1000 } });
test.setTimeout(120_000);

const EDITOR = 'e2e-editor-39-media@example.com';
const SLUG = 'e2e-image-lesson';

test.beforeAll(() => {
  contentEditor(EDITOR);
  django(`
from lessons.blocks import block_html
from lessons.models import Block, Lesson
quest = Lesson.objects.get(slug="embedding-dimension").quest
lesson, _ = Lesson.objects.update_or_create(slug="${SLUG}", defaults={"quest": quest,
    "title": "A lesson with a picture", "position": 998, "published": True, "publish_at": None})
lesson.blocks.all().delete()
Block.objects.create(lesson=lesson, kind="prose", position=1, markdown="The picture:",
    html=block_html("prose", "The picture:"))
`);
});

// The specs share one database: the lesson made here must not change what later specs count.
test.afterAll(() => {
  django(`
from lessons.models import Lesson, LessonImage
Lesson.objects.filter(slug="${SLUG}").delete()
LessonImage.objects.filter(uploaded_by__email="${EDITOR}").delete()
`);
});

/** A 2400 x 1200 JPEG with a camera's EXIF, made by Pillow (what a phone would upload). */
function photo(): Buffer {
  const b64 = django(`
import base64, io
from PIL import Image
image = Image.new("RGB", (2400, 1200), "teal")
for x in range(0, 2400, 200):
    image.paste("orange", (x, 0, x + 100, 1200))
exif = Image.Exif()
exif[0x010F] = "CameraMaker"
out = io.BytesIO()
image.save(out, format="JPEG", exif=exif)
print(base64.b64encode(out.getvalue()).decode())
`);
  return Buffer.from(b64.trim(), 'base64');
}

test('an editor uploads an image with alt text, puts it in a block, and a learner sees it', async ({
  page,
  browser,
  watch,
}) => {
  watch.allow(/favicon\.ico/);
  await signInToAdmin(page, EDITOR);

  // --- Upload: without alt text it is refused on the form, with it stored (resized).
  await page.goto('/admin/lessons/lessonimage/add/');
  const file = { name: 'diagram.jpg', mimeType: 'image/jpeg', buffer: photo() };
  await page.getByLabel('Image').setInputFiles(file);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.locator('.errorlist')).toContainText('This field is required.');
  await shot(page, 'admin-39-media-01-alt-required');

  await page.getByLabel('Image').setInputFiles(file);
  await page.getByLabel('Alt text').fill('Teal and orange stripes, one every 200 pixels');
  await page.getByRole('button', { name: 'Save and continue editing' }).click();
  await expect(page.locator('.messagelist')).toContainText('was added successfully');
  await expect(page.getByText('1600 x 800 px')).toBeVisible();
  const snippet = await page.getByLabel('Markdown for this image').inputValue();
  expect(snippet).toMatch(/^!\[Teal and orange stripes, one every 200 pixels\]\(\/media\/lessons\/images\/\d{4}\/\d\d\/diagram(_\w+)?\.jpg\)$/);
  await shot(page, 'admin-39-media-02-uploaded');

  // --- The editor pastes the Markdown into the lesson's block and saves.
  const lessonId = django(`from lessons.models import Lesson; print(Lesson.objects.get(slug="${SLUG}").pk)`).trim();
  await page.goto(`/admin/lessons/lesson/${lessonId}/change/`);
  await page.evaluate(() => sessionStorage.clear());
  await page.reload();
  const source = page.locator('#blocks-group .inline-related.has_original').first().locator('textarea.lp-markdown-source');
  await source.fill(`The picture:\n\n${snippet}`);
  await page.getByRole('button', { name: 'Save and continue editing' }).click();
  await expect(page.locator('.messagelist')).toContainText('was changed successfully');

  // --- A learner (signed out) sees it on the lesson page, at full width and on a phone.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const learner = await context.newPage();
  await learner.goto(`/lessons/${SLUG}`);
  // The app takes over the server's markup: wait until it has, or the image is replaced under us.
  await expect(learner.getByRole('heading', { name: 'Comments' })).toBeVisible();
  const image = learner.getByRole('img', { name: 'Teal and orange stripes, one every 200 pixels' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1600);
  await shot(learner, 'admin-39-media-03-learner');

  await learner.setViewportSize({ width: 375, height: 800 });
  const box = (await image.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(375);
  expect(await learner.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(learner, 'admin-39-media-04-learner-375');
  await context.close();
});
