import type { ImageUploader } from '../../../components/rich-text/editor-tools';
import { readAsDataUrl } from './attachment';

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif'];
const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/**
 * The body's pictures: the image tool's uploader sends one to `POST /api/blog_images` as a data URL
 * with the session cookie (a JSON body, which the REST facade's CSRF check asks of cookie writes).
 * The server checks it by content and answers in the image tool's format `{ success: 1, file: { url } }`.
 * A file that is plainly no picture of ours is refused here already (the tool then says so in one
 * message); a picture pasted by URL is taken only when it is our own (a copy within the editor).
 */
export const BLOG_IMAGES: ImageUploader = {
  types: IMAGE_TYPES,
  async uploadByFile(file) {
    if (!IMAGE_TYPES.includes(file.type) || file.size > IMAGE_MAX_BYTES) return { success: 0, file: { url: '' } };
    const res = await fetch('/api/blog_images', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: file.name ?? 'image', data_url: await readAsDataUrl(file) }),
    });
    if (!res.ok) return { success: 0, file: { url: '' } };
    return (await res.json()) as { success: number; file: { url: string } };
  },
  async uploadByUrl(url) {
    const own = new URL(url, window.location.href);
    if (own.origin !== window.location.origin || !own.pathname.startsWith('/api/blog_images/'))
      return { success: 0, file: { url: '' } };
    return { success: 1, file: { url: own.pathname } };
  },
};
