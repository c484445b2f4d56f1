import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations, describeFindings } from './support/axe';
import { PHONE, chooseFromMenu, launchBrowser, newPage, signInRetrying as signIn } from './support/browser';
import {
  cardTitled,
  commentByApi,
  commentNamed,
  commentsOf,
  dialogOf,
  openComments,
  shot,
  unique,
} from './support/blog-comments';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('editing a comment (web)', () => {
  test('its author edits the text in place (Enter saves, Escape leaves it), it says 編集済み, and a reader on a phone sees the new text live without the menu', async () => {
    const author = await newPage(browser);
    const reader = await newPage(browser, PHONE);
    await signIn(author.page, 'staff');
    await signIn(reader.page, 'sysadmin', { landing: '/schedules/sp' });
    const title = unique('コメントの編集');
    // The post is sysadmin's: staff comments on it, so staff's menu has 編集 and 削除, sysadmin's (the post's author) 削除 only.
    const res = await reader.page.request.get('/api/blog_category');
    const club = ((await res.json()) as { category_id: number; category_name: string }[]).find(
      (c) => c.category_name === '部活動・サークル',
    )!.category_id;
    const created = await reader.page.request.post('/api/blogs', {
      data: { title, content: '<p>コメントの編集の確認</p>', category_id: club, options: 'comment,like' },
    });
    const id = ((await created.json()) as { blog_id: number }).blog_id;
    const commentId = await commentByApi(author.page, id, '明日の集合は9時でしす');

    await author.page.goto('/blog');
    await cardTitled(author.page, title).waitFor();
    await openComments(author.page, title);
    await reader.page.goto('/blog/sp');
    await cardTitled(reader.page, title).waitFor();
    await openComments(reader.page, title);

    // Found by id: while it is edited, its text is in the box, not on the page.
    const mine = dialogOf(author.page).locator(`[data-comment-id="${commentId}"]`);
    await mine.waitFor();
    const openEditor = () =>
      chooseFromMenu(
        author.page.getByRole('menuitem', { name: '編集' }),
        () => mine.getByTestId('blog-comment-menu').click(),
        () => mine.getByTestId('blog-comment-editor').waitFor({ timeout: 5000 }),
        'blog-comment-edit',
      );
    await openEditor();
    const box = mine.getByRole('textbox', { name: 'コメントを編集' });
    expect(await box.inputValue()).toBe('明日の集合は9時でしす');
    // Escape leaves the edit (the dialog stays) and the text as it was.
    await box.press('Escape');
    await mine.getByTestId('blog-comment-editor').waitFor({ state: 'detached' });
    expect(await dialogOf(author.page).isVisible()).toBe(true);

    // Blank is refused where it was written, with one message.
    await openEditor();
    await box.fill('   ');
    await box.press('Enter');
    await expect
      .poll(() => mine.getByTestId('blog-comment-editor-error').allInnerTexts())
      .toEqual(['コメントを入力してください。']);
    const found = await axeViolations(author.page, { include: '[data-testid="blog-comments"]' });
    expect(found, describeFindings('the comment editor', found)).toEqual([]);
    await box.fill('明日の集合は9時です');
    await box.press('Enter');
    const edited = commentNamed(author.page, '明日の集合は9時です');
    await edited.waitFor();
    await edited.getByTestId('comment-edited').waitFor();
    expect(await edited.getByTestId('comment-edited').innerText()).toBe('編集済み');
    expect(await edited.getByTestId('comment-edited').getAttribute('title')).toMatch(/に編集$/);
    await shot(author.page, 'desktop-blog-comment-edited');

    // The reader's open dialog reads the thread again: the new text, 編集済み, and no 編集 for them.
    const seen = commentNamed(reader.page, '明日の集合は9時です');
    await seen.getByTestId('comment-edited').waitFor();
    await seen.getByTestId('blog-comment-menu').click();
    await reader.page.getByRole('menuitem', { name: '削除' }).waitFor();
    expect(await reader.page.getByRole('menuitem', { name: '編集' }).count()).toBe(0);
    await reader.page.keyboard.press('Escape');
    await shot(reader.page, 'phone-blog-comment-edited');
    expect((await commentsOf(reader.page, id)).map((c) => c.content)).toEqual(['明日の集合は9時です']);
    await Promise.all([author, reader].map((x) => x.context.close()));
  }, 180_000);
});
