import { describe, expect, it } from 'vitest';
import { addDays, emptyForm, formFieldOf, restBody, togglePin, tokyoToday } from './post-form';

describe('pin window defaults (spec §4)', () => {
  const today = '2026-11-27';
  it('turning the pin on without a start sets today and today + 7 days', () => {
    expect(togglePin({ isPin: false, pinStart: '', pinEnd: '' }, true, today)).toEqual({
      isPin: true,
      pinStart: '2026-11-27',
      pinEnd: '2026-12-04',
    });
  });

  it('keeps a window already set, and fills only a missing end from the start', () => {
    expect(togglePin({ isPin: false, pinStart: '2026-12-01', pinEnd: '2026-12-02' }, true, today)).toEqual({
      isPin: true,
      pinStart: '2026-12-01',
      pinEnd: '2026-12-02',
    });
    expect(togglePin({ isPin: false, pinStart: '2026-12-30', pinEnd: '' }, true, today)).toEqual({
      isPin: true,
      pinStart: '2026-12-30',
      pinEnd: '2027-01-06',
    });
  });

  it('turning it off keeps the dates on screen (back on restores them); the save sends none', () => {
    const off = togglePin({ isPin: true, pinStart: '2026-11-27', pinEnd: '2026-12-04' }, false, today);
    expect(off).toEqual({ isPin: false, pinStart: '2026-11-27', pinEnd: '2026-12-04' });
    const body = restBody({ ...emptyForm(today), ...off }, { blocks: [] }, { postId: null, draft: false });
    expect([body.is_pin, body.pin_start_dt, body.pin_end_dt]).toEqual([false, null, null]);
  });
});

describe('dates', () => {
  it('today is the Tokyo calendar day: 15:00 UTC is already tomorrow there, 14:59 is not', () => {
    expect(tokyoToday(new Date('2026-11-26T15:00:00Z'))).toBe('2026-11-27');
    expect(tokyoToday(new Date('2026-11-26T14:59:59Z'))).toBe('2026-11-26');
  });

  it('adds days across month, year and leap-day ends', () => {
    expect(addDays('2026-12-28', 7)).toBe('2027-01-04');
    expect(addDays('2028-02-25', 7)).toBe('2028-03-03');
    expect(addDays('2027-02-25', 7)).toBe('2027-03-04');
  });
});

describe("restBody (the spec's /api/blogs body)", () => {
  const today = '2026-11-27';
  const form = {
    ...emptyForm(today),
    title: '  お知らせ  ',
    category: { id: 3, name: '社内報', color: '#ff0000' },
    tags: [
      { id: 5, content: 'a' },
      { id: 9, content: 'b' },
    ],
    allowLikes: false,
    hasPublishEnd: true,
    publishEnd: '2026-12-31',
    version: 4,
  };

  it('names every field as the spec does; publish start defaults to today, the end only with hasPublishEnd', () => {
    const body = restBody(form, { blocks: [] }, { postId: null, draft: false });
    expect(body).toEqual({
      title: 'お知らせ',
      content: { blocks: [] },
      category_id: 3,
      blog_tags: '5,9',
      options: 'comment',
      publish_start_date: '2026-11-27',
      hasPublishEnd: true,
      publish_end_date: '2026-12-31',
      is_pin: false,
      pin_start_dt: null,
      pin_end_dt: null,
      require_confirmation: false,
      is_draft: false,
      upload_files: null,
    });
    // Required reading travels only with the pin.
    expect(
      restBody({ ...form, requireConfirmation: true }, { blocks: [] }, { postId: null, draft: false })
        .require_confirmation,
    ).toBe(false);
    expect(
      restBody({ ...form, isPin: true, requireConfirmation: true }, { blocks: [] }, { postId: null, draft: false })
        .require_confirmation,
    ).toBe(true);
    expect(restBody({ ...form, hasPublishEnd: false }, { blocks: [] }, { postId: null, draft: true })).toMatchObject({
      publish_end_date: null,
      is_draft: true,
    });
  });

  it('an edit sends its version and keeps the stored file by its own URL; a new file travels as a data URL', () => {
    const stored = {
      kind: 'stored' as const,
      file: { name: 'a.pdf', type: 'application/pdf', size: 10, url: '/api/blogs/7/attachment', thumbnailUrl: null },
    };
    const edit = restBody({ ...form, attachment: stored }, { blocks: [] }, { postId: 7, draft: false });
    expect(edit.version).toBe(4);
    expect(JSON.parse(edit.upload_files as string)).toEqual([
      { uid: '7', name: 'a.pdf', url: '/api/blogs/7/attachment', type: 'application/pdf' },
    ]);
    const fresh = restBody(
      {
        ...form,
        attachment: {
          kind: 'new',
          uid: 'u1',
          name: 'p.png',
          type: 'image/png',
          size: 3,
          dataUrl: 'data:image/png;base64,AAA',
        },
      },
      { blocks: [] },
      { postId: 7, draft: false },
    );
    expect(JSON.parse(fresh.upload_files as string)).toEqual([
      { uid: 'u1', name: 'p.png', url: 'data:image/png;base64,AAA', type: 'image/png' },
    ]);
  });
});

describe('formFieldOf (a REST field error → the form field it is shown under)', () => {
  it("maps the body's names, with or without an index, and nothing for unknown fields", () => {
    expect(
      ['category_id', 'blog_tags.0', 'upload_files', 'pin_end_dt', 'publish_end_date', 'content', 'version'].map(
        formFieldOf,
      ),
    ).toEqual(['category', 'tags', 'attachment', 'pinEnd', 'publishEnd', 'content', null]);
  });
});
