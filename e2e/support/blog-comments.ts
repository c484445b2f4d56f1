/** The blog comment dialog's browser tests share these: finding cards and the dialog, making posts and comments through /api. */
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { signInRetrying as signIn } from './browser';

export const unique = (prefix: string) =>
  `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
export const cardTitled = (page: Page, title: string) =>
  page
    .getByTestId('blog-grid')
    .getByTestId('blog-card')
    .filter({ has: page.getByRole('heading', { name: title, exact: true }) });
export const dialogOf = (page: Page) => page.getByTestId('blog-comments');
export const mainBox = (page: Page) => page.getByTestId('blog-comment-box').getByRole('textbox');
export const commentTexts = (scope: Locator) => scope.getByTestId('blog-comment-text').allInnerTexts();
export const commentNamed = (page: Page, text: string) =>
  dialogOf(page)
    .locator('[data-testid="blog-comment"], [data-testid="blog-reply"]')
    .filter({ has: page.getByText(text, { exact: true }) });

export async function shot(page: Page, name: string) {
  await page.waitForTimeout(300);
  await page.screenshot({ path: `e2e/artifacts/${name}.png` });
}

export async function openFeed(page: Page, login: string, path = '/blog') {
  await signIn(page, login, { landing: path.startsWith('/blog/sp') ? '/schedules/sp' : '/schedules' });
  await page.goto(path);
  await page.getByTestId('blog-card').first().waitFor();
}

/** The id of 部活動・サークル, the demo category every department reads and posts in. */
export async function clubCategory(page: Page): Promise<number> {
  const categories = (await (await page.request.get('/api/blog_category')).json()) as {
    category_id: number;
    category_name: string;
  }[];
  return categories.find((c) => c.category_name === '部活動・サークル')!.category_id;
}

/** A post of `page`'s employee in 部活動・サークル (read by every department), through the REST facade. */
export async function createPost(page: Page, title: string, options = 'comment,like'): Promise<number> {
  const club = await clubCategory(page);
  const res = await page.request.post('/api/blogs', {
    data: { title, content: '<p>コメントの確認用</p>', category_id: club, options },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { blog_id: number }).blog_id;
}

export async function commentByApi(
  page: Page,
  blogId: number,
  content: string,
  file?: { name: string; type: string; bytes: Buffer },
): Promise<number> {
  const attachment = file
    ? { attachment: `data:${file.type};base64,${file.bytes.toString('base64')}`, attachment_filename: file.name }
    : {};
  const res = await page.request.post('/api/comments', { data: { blog_id: blogId, content, ...attachment } });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { comment_id: number }).comment_id;
}

export interface ApiComment {
  comment_id: number;
  content: string;
  replies: ApiComment[];
}
export async function commentsOf(page: Page, blogId: number): Promise<ApiComment[]> {
  return (await (await page.request.get(`/api/comments/${blogId}`)).json()) as ApiComment[];
}

export async function openComments(page: Page, title: string) {
  await cardTitled(page, title).getByTestId('blog-comments-open').click();
  await dialogOf(page).waitFor();
  await dialogOf(page).getByTestId('blog-comment-list').waitFor();
}
