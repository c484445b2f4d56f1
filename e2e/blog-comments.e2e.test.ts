import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pdf } from '@intranet/graph/fixtures';
import { axeViolations, describeFindings } from './support/axe';
import { PHONE, chooseFromMenu, launchBrowser, newPage, signInRetrying as signIn } from './support/browser';
import { makePng } from './support/png';
import {
  cardTitled,
  commentByApi,
  commentNamed,
  commentsOf,
  commentTexts,
  createPost,
  dialogOf,
  mainBox,
  openComments,
  openFeed,
  shot,
  unique,
  type ApiComment,
} from './support/blog-comments';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('blog comments (web)', () => {
  test('staff comments with an emoji picked by keyboard, replies, attaches a picture and previews it; blank and refused files say why', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    const title = unique('コメントの確認');
    const closedTitle = unique('コメントなしの投稿');
    const id = await createPost(page, title);
    await createPost(page, closedTitle, 'like');
    await page.goto('/blog');
    const card = cardTitled(page, title);
    await card.waitFor();
    expect(await card.getByTestId('blog-comment-count').innerText()).toBe('0');
    await openComments(page, title);
    await expect
      .poll(() => dialogOf(page).getByTestId('blog-comment-list').innerText())
      .toBe('まだコメントはありません。');

    // A blank comment is refused where it was written, with one message.
    await mainBox(page).focus();
    await page.keyboard.press('Enter');
    await expect
      .poll(() => dialogOf(page).getByTestId('blog-comment-error').allInnerTexts())
      .toEqual(['コメントを入力してください。']);

    // The emoji goes in at the caret: the grid by keyboard (Enter opens, → moves, Enter picks).
    await mainBox(page).fill('お疲れさまです');
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
    await dialogOf(page).getByTestId('blog-comment-emoji').focus();
    await page.keyboard.press('Enter');
    const grid = page.getByRole('group', { name: '絵文字を選ぶ' });
    await grid.waitFor();
    expect(await grid.getByRole('button').count()).toBeGreaterThanOrEqual(85);
    await shot(page, 'desktop-blog-comments-emoji');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    await grid.waitFor({ state: 'detached' });
    await expect.poll(() => mainBox(page).inputValue()).toBe('お疲れ😄さまです');
    // Focus is back in the box: Enter sends.
    await page.keyboard.press('Enter');
    await expect.poll(() => commentTexts(dialogOf(page))).toEqual(['お疲れ😄さまです']);
    expect(await mainBox(page).inputValue()).toBe('');
    await expect.poll(() => card.getByTestId('blog-comment-count').innerText()).toBe('1');

    // A reply, under the comment: the same Enter rule as the main box, said under both.
    const first = commentNamed(page, 'お疲れ😄さまです');
    await first.getByRole('button', { name: '返信' }).click();
    const replyBox = first.getByTestId('blog-reply-box');
    expect(await replyBox.innerText()).toContain('Enter で送信・Shift+Enter で改行');
    expect(await dialogOf(page).getByTestId('blog-comment-box').innerText()).toContain(
      'Enter で送信・Shift+Enter で改行',
    );
    await replyBox.getByRole('textbox').fill('ありがとう');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('ございます');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => first.getByTestId('blog-reply').getByTestId('blog-comment-text').allInnerTexts())
      .toEqual(['ありがとう\nございます']);
    await expect.poll(() => card.getByTestId('blog-comment-count').innerText()).toBe('2');

    // A file the browser takes by name but the server refuses by content: the server's message, and nothing is posted.
    const input = dialogOf(page).getByTestId('blog-comment-box').getByTestId('blog-comment-file');
    await input.setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('これは画像ではありません'),
    });
    await dialogOf(page).getByTestId('blog-comment-chosen').waitFor();
    await mainBox(page).fill('偽の画像');
    await page.keyboard.press('Enter');
    const error = dialogOf(page).getByTestId('blog-comment-error');
    await expect.poll(() => error.allInnerTexts()).toEqual([expect.stringContaining('拡張子')]);
    expect(threadSizeOf(await commentsOf(page, id))).toBe(2);
    // A type the rules exclude never leaves the browser.
    await input.setInputFiles({ name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
    await expect
      .poll(() => error.allInnerTexts())
      .toEqual(['このファイル形式は添付できません（txt・pdf・png・jpg・jpeg・gif のみ）。']);

    // A real picture: sent with the comment, previewed inline.
    await input.setInputFiles({ name: '集合写真.png', mimeType: 'image/png', buffer: makePng(240, 120) });
    await expect.poll(() => dialogOf(page).getByTestId('blog-comment-chosen').innerText()).toBe('集合写真.png');
    await mainBox(page).fill('写真を添付します');
    await dialogOf(page).getByTestId('blog-comment-box').getByTestId('blog-comment-send').click();
    const withFile = commentNamed(page, '写真を添付します');
    await withFile.getByTestId('blog-comment-attachment').click();
    const preview = page.getByTestId('blog-comment-preview');
    await preview.waitFor();
    const img = preview.getByRole('img', { name: '集合写真.png' });
    await expect.poll(() => img.evaluate((e) => (e as HTMLImageElement).naturalWidth)).toBe(240);
    await shot(page, 'desktop-blog-comment-preview');
    await page
      .getByRole('dialog', { name: '集合写真.png のプレビュー' })
      .getByRole('button', { name: '閉じる' })
      .last()
      .click();
    await preview.waitFor({ state: 'detached' });
    await shot(page, 'desktop-blog-comments');
    const found = await axeViolations(page, { include: '[data-testid="blog-comments"]' });
    expect(found, describeFindings('the comments dialog', found)).toEqual([]);
    expect(threadSizeOf(await commentsOf(page, id))).toBe(3);
    await page
      .getByRole('dialog', { name: `${title} のコメント` })
      .getByRole('button', { name: '閉じる' })
      .last()
      .click();
    await dialogOf(page).waitFor({ state: 'detached' });
    await expect.poll(() => card.getByTestId('blog-comment-count').innerText()).toBe('3');

    // Where the author turned comments off: a short note and no box.
    await openComments(page, closedTitle);
    expect(await dialogOf(page).getByTestId('blog-comments-closed').innerText()).toBe(
      'この投稿はコメントを受け付けていません。',
    );
    expect(await dialogOf(page).getByRole('textbox').count()).toBe(0);
    await context.close();
  });

  test('a PDF previews in a frame (the app lets its own files be framed); a text file offers its download', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    const title = unique('添付プレビューの確認');
    const id = await createPost(page, title);
    await commentByApi(page, id, '議事録です', { name: '議事録.pdf', type: 'application/pdf', bytes: pdf() });
    await commentByApi(page, id, 'メモです', {
      name: 'メモ.txt',
      type: 'text/plain',
      bytes: Buffer.from('打ち合わせのメモ\n'),
    });
    await page.goto('/blog');
    await cardTitled(page, title).waitFor();
    await openComments(page, title);

    const framed = page.waitForResponse(
      (r) =>
        /\/api\/comments\/\d+\/attachment$/.test(new URL(r.url()).pathname) &&
        r.request().resourceType() === 'document',
    );
    await commentNamed(page, '議事録です').getByTestId('blog-comment-attachment').click();
    const preview = page.getByTestId('blog-comment-preview');
    await preview.waitFor();
    expect(await preview.locator('iframe').getAttribute('title')).toBe('議事録.pdf');
    // Had the page's CSP refused the frame, the browser would never have asked for the file.
    const res = await framed;
    expect([res.status(), res.headers()['content-type']]).toEqual([200, 'application/pdf']);
    await shot(page, 'desktop-blog-comment-pdf');
    await page
      .getByRole('dialog', { name: '議事録.pdf のプレビュー' })
      .getByRole('button', { name: '閉じる' })
      .last()
      .click();
    await preview.waitFor({ state: 'detached' });

    await commentNamed(page, 'メモです').getByTestId('blog-comment-attachment').click();
    await preview.waitFor();
    expect(await preview.innerText()).toContain('この形式はプレビューできません。ダウンロードして開いてください。');
    expect(await preview.getByRole('link', { name: 'ダウンロード' }).getAttribute('download')).toBe('メモ.txt');
    await context.close();
  });

  test('the Enter that confirms a Japanese IME conversion never sends; the next plain Enter does', async () => {
    const { context, page } = await newPage(browser);
    await signIn(page, 'staff');
    const title = unique('IME の確認');
    const id = await createPost(page, title);
    await page.goto('/blog');
    await cardTitled(page, title).waitFor();
    await openComments(page, title);
    const box = mainBox(page);
    await box.focus();
    await page.keyboard.insertText('会議');
    // Chrome's order: the confirming keydown is still composing, compositionend follows.
    await box.evaluate((el) => {
      el.dispatchEvent(new CompositionEvent('compositionstart', { bubbles: true, data: '' }));
      el.dispatchEvent(
        new KeyboardEvent('keydown', {
          key: 'Enter',
          code: 'Enter',
          isComposing: true,
          bubbles: true,
          cancelable: true,
        }),
      );
      el.dispatchEvent(new CompositionEvent('compositionend', { bubbles: true, data: '会議' }));
    });
    await page.keyboard.insertText('の件');
    // Safari's order: compositionend first, then the keydown of the same Enter (no longer composing).
    await box.evaluate((el) => {
      el.dispatchEvent(new CompositionEvent('compositionstart', { bubbles: true, data: '' }));
      el.dispatchEvent(new CompositionEvent('compositionend', { bubbles: true, data: '件' }));
      el.dispatchEvent(
        new KeyboardEvent('keydown', {
          key: 'Enter',
          code: 'Enter',
          isComposing: false,
          bubbles: true,
          cancelable: true,
        }),
      );
    });
    await page.keyboard.insertText('、承知しました');
    expect(await box.inputValue()).toBe('会議の件、承知しました');
    // A plain Enter sends it, once, whole: had either IME Enter sent, a part would be a comment of its own.
    await page.keyboard.press('Enter');
    await expect.poll(() => commentTexts(dialogOf(page))).toEqual(['会議の件、承知しました']);
    expect((await commentsOf(page, id)).map((c) => c.content)).toEqual(['会議の件、承知しました']);
    // Shift+Enter breaks the line instead of sending.
    await box.focus();
    await page.keyboard.insertText('一行目');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.insertText('二行目');
    expect(await box.inputValue()).toBe('一行目\n二行目');
    expect((await commentsOf(page, id)).length).toBe(1);
    await context.close();
  });

  // Three browsers signing in one after another (and two in the live test): 180 s, beyond the default 90 s on a loaded machine.
  test("deletion: the comment's author and the post's author see 削除 and may delete; another employee sees no menu (and the API refuses them)", async () => {
    const author = await newPage(browser);
    const commenter = await newPage(browser);
    const other = await newPage(browser, PHONE);
    await signIn(author.page, 'staff');
    await signIn(commenter.page, 'devadmin');
    await signIn(other.page, 'sysadmin', { landing: '/schedules/sp' });
    const title = unique('削除権限の確認');
    const id = await createPost(author.page, title);
    const devComment = await commentByApi(commenter.page, id, 'デバイス管理者のコメント');
    await commentByApi(other.page, id, 'システム管理者のコメント');

    // Another employee (phone): no menu on devadmin's comment, a menu on their own.
    await other.page.goto('/blog/sp');
    await cardTitled(other.page, title).waitFor();
    await openComments(other.page, title);
    await commentNamed(other.page, 'デバイス管理者のコメント').waitFor();
    expect(await commentNamed(other.page, 'デバイス管理者のコメント').getByTestId('blog-comment-menu').count()).toBe(0);
    expect(await commentNamed(other.page, 'システム管理者のコメント').getByTestId('blog-comment-menu').count()).toBe(1);
    await shot(other.page, 'phone-blog-comments');
    const found = await axeViolations(other.page, { include: '[data-testid="blog-comments"]' });
    expect(found, describeFindings('the comments dialog (phone)', found)).toEqual([]);
    // The server holds the same rule.
    const refused = await other.page.request.delete(`/api/comments/${devComment}`, {
      headers: { 'X-Requested-With': 'fetch' },
    });
    expect(refused.status()).toBe(403);

    // The commenter: a menu on their own comment only.
    await commenter.page.goto('/blog');
    await cardTitled(commenter.page, title).waitFor();
    await openComments(commenter.page, title);
    await commentNamed(commenter.page, 'デバイス管理者のコメント').waitFor();
    expect(
      await commentNamed(commenter.page, 'デバイス管理者のコメント').getByTestId('blog-comment-menu').count(),
    ).toBe(1);
    expect(
      await commentNamed(commenter.page, 'システム管理者のコメント').getByTestId('blog-comment-menu').count(),
    ).toBe(0);

    // The post's author: a menu on both; 削除 asks first, then the comment goes.
    await author.page.goto('/blog');
    await cardTitled(author.page, title).waitFor();
    await openComments(author.page, title);
    const target = commentNamed(author.page, 'デバイス管理者のコメント');
    await target.waitFor();
    expect(await commentNamed(author.page, 'システム管理者のコメント').getByTestId('blog-comment-menu').count()).toBe(
      1,
    );
    const confirm = author.page.getByRole('alertdialog', { name: 'コメントを削除しますか？' });
    await chooseDelete(author.page, target.getByTestId('blog-comment-menu'), confirm);
    await shot(author.page, 'desktop-blog-comment-delete');
    await confirm.getByRole('button', { name: '削除' }).click();
    await target.waitFor({ state: 'detached' });
    await expect.poll(() => commentTexts(dialogOf(author.page))).toEqual(['システム管理者のコメント']);
    expect((await commentsOf(author.page, id)).map((c) => c.content)).toEqual(['システム管理者のコメント']);
    await Promise.all([author, commenter, other].map((x) => x.context.close()));
  }, 180_000);

  test('a long thread opens a page at a time: もっと見る for comments, 返信をさらに表示 for replies; a live change keeps the pages open', async () => {
    const writer = await newPage(browser);
    const reader = await newPage(browser);
    await signIn(writer.page, 'staff');
    const title = unique('長いスレッド');
    const id = await createPost(writer.page, title);
    const ids: number[] = [];
    for (let i = 1; i <= 45; i++) ids.push(await commentByApi(writer.page, id, `コメント ${i}`));
    const replyIds: number[] = [];
    for (let i = 1; i <= 25; i++) {
      const res = await writer.page.request.post('/api/comments', {
        data: { blog_id: id, content: `返信 ${i}`, parent_comment_id: ids[0] },
      });
      expect(res.status()).toBe(201);
      replyIds.push(((await res.json()) as { comment_id: number }).comment_id);
    }
    await openFeed(reader.page, 'sysadmin');
    await openComments(reader.page, title);
    const dialog = dialogOf(reader.page);
    const top = dialog.getByTestId('blog-comment');
    await expect.poll(() => top.count()).toBe(20);
    await expect.poll(() => commentNamed(reader.page, 'コメント 1').getByTestId('blog-reply').count()).toBe(10);
    const moreReplies = dialog.getByTestId('blog-replies-more');
    expect(await moreReplies.innerText()).toBe('返信をさらに表示（残り 15 件）');
    await moreReplies.scrollIntoViewIfNeeded();
    await shot(reader.page, 'desktop-blog-comments-more-replies');
    await moreReplies.click();
    await expect.poll(() => commentNamed(reader.page, 'コメント 1').getByTestId('blog-reply').count()).toBe(25);
    await expect.poll(() => moreReplies.count()).toBe(0);
    // An edit elsewhere of a reply beyond the first page: the opened replies are read again.
    const edited = await writer.page.request.put(`/api/comments/${replyIds[19]}`, {
      data: { content: '返信 20（訂正）' },
      headers: { 'X-Requested-With': 'fetch' },
    });
    expect(edited.status()).toBe(200);
    await commentNamed(reader.page, '返信 20（訂正）').getByTestId('comment-edited').waitFor();
    expect(await commentNamed(reader.page, 'コメント 1').getByTestId('blog-reply').count()).toBe(25);
    const more = dialog.getByTestId('blog-comments-more');
    await more.scrollIntoViewIfNeeded();
    await reader.page.setViewportSize({ width: 390, height: 800 });
    await more.scrollIntoViewIfNeeded();
    await shot(reader.page, 'narrow-blog-comments-more');
    await reader.page.setViewportSize({ width: 1280, height: 800 });
    await more.click();
    await expect.poll(() => top.count()).toBe(40);
    await more.click();
    await expect.poll(() => top.count()).toBe(45);
    await expect.poll(() => more.count()).toBe(0);
    await shot(reader.page, 'desktop-blog-comments-paged');
    // A comment from elsewhere: the dialog reads its pages again and keeps all of them, the new one last.
    await commentByApi(writer.page, id, 'あとから来たコメント');
    await expect.poll(() => top.count()).toBe(46);
    expect((await commentTexts(top.last()))[0]).toBe('あとから来たコメント');
    await expect.poll(() => cardTitled(reader.page, title).getByTestId('blog-comment-count').innerText()).toBe('71');
    await writer.context.close();
    await reader.context.close();
  });

  test('live: a comment, a reply and a deletion in one browser reach the other’s open dialog and card count without reload', async () => {
    const writer = await newPage(browser);
    const watcher = await newPage(browser);
    await signIn(writer.page, 'staff');
    const title = unique('ライブコメント');
    await createPost(writer.page, title);
    await openFeed(watcher.page, 'sysadmin');
    await cardTitled(watcher.page, title).waitFor();
    await openComments(watcher.page, title);
    await watcher.page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
    const watched = dialogOf(watcher.page);
    const count = cardTitled(watcher.page, title).getByTestId('blog-comment-count');

    // No warm-up: a comment written while the feed's subscription is still registering reaches the
    // dialog all the same (the registration's position makes it read again).
    await expect.poll(() => commentTexts(watched)).toEqual([]);
    await expect.poll(() => count.innerText()).toBe('0');

    // The writer comments in their own dialog; the watcher's dialog and card follow.
    await writer.page.goto('/blog');
    await cardTitled(writer.page, title).waitFor();
    await openComments(writer.page, title);
    await mainBox(writer.page).fill('ライブで届くコメント 🎉');
    await writer.page.keyboard.press('Enter');
    await expect.poll(() => commentTexts(watched)).toEqual(['ライブで届くコメント 🎉']);
    await expect.poll(() => count.innerText()).toBe('1');

    const first = commentNamed(writer.page, 'ライブで届くコメント 🎉');
    await first.getByRole('button', { name: '返信' }).click();
    await first.getByTestId('blog-reply-box').getByRole('textbox').fill('ライブの返信');
    await first.getByTestId('blog-reply-box').getByTestId('blog-comment-send').click();
    await expect
      .poll(() =>
        commentNamed(watcher.page, 'ライブで届くコメント 🎉')
          .getByTestId('blog-reply')
          .getByTestId('blog-comment-text')
          .allInnerTexts(),
      )
      .toEqual(['ライブの返信']);
    await expect.poll(() => count.innerText()).toBe('2');
    await shot(watcher.page, 'desktop-blog-comments-live');

    // The writer deletes their comment (and with it the reply): gone from the watcher too.
    // The comment's own menu comes first (its reply has one too: the writer wrote both).
    const question = writer.page.getByRole('alertdialog');
    await chooseDelete(writer.page, first.getByTestId('blog-comment-menu').first(), question);
    await question.getByRole('button', { name: '削除' }).click();
    await expect.poll(() => commentTexts(watched)).toEqual([]);
    await expect.poll(() => count.innerText()).toBe('0');
    expect(await watcher.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await Promise.all([writer, watcher].map((x) => x.context.close()));
  }, 180_000);
});

/** Opens a comment's menu (`menu`, its button) and picks 削除 until its question shows. */
async function chooseDelete(page: Page, menu: Locator, question: Locator) {
  await chooseFromMenu(
    page.getByRole('menuitem', { name: '削除' }),
    () => menu.click(),
    () => question.waitFor({ timeout: 5000 }),
    'blog-comments',
  );
}

function threadSizeOf(comments: ApiComment[]): number {
  return comments.reduce((n, c) => n + 1 + c.replies.length, 0);
}
