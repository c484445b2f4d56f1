import { describe, expect, it } from 'vitest';
import type { ScheduleSnapshot } from '@intranet/schema/events/schedule.events';
import { renderIcs } from './ics.render.js';

const entry = (over: Partial<ScheduleSnapshot> = {}): ScheduleSnapshot => ({
  id: 7,
  ownerId: 3,
  ownerName: '山田 太郎',
  title: '会議',
  startDate: '2026-12-15',
  endDate: '2026-12-15',
  isAllDay: false,
  startTime: '10:00:00',
  endTime: '11:00:00',
  type: 'TASK',
  meetLink: null,
  description: null,
  syncGoogle: false,
  isPrivate: false,
  externalGuests: [],
  guests: [],
  googleEventId: null,
  version: 1,
  updatedAt: '2026-12-01T00:00:00.000Z',
  ...over,
});

/** RFC 5545 3.1: content lines end in CRLF; a line starting with a space or tab continues the one before. */
function contentLines(text: string): string[] {
  expect(text.endsWith('\r\n')).toBe(true);
  const physical = text.slice(0, -2).split('\r\n');
  for (const l of physical) {
    expect(l).not.toMatch(/[\r\n]/); // no bare CR or LF anywhere
    expect(Buffer.byteLength(l, 'utf8')).toBeLessThanOrEqual(75);
    expect(l).not.toMatch(/[\x00-\x08\x0a-\x1f\x7f]/); // no control character but HTAB
  }
  const out: string[] = [];
  for (const l of physical) {
    if (l.startsWith(' ') || l.startsWith('\t')) out[out.length - 1] += l.slice(1);
    else out.push(l);
  }
  return out;
}

/** RFC 5545 3.3.11 TEXT, unescaped. */
const unescape = (v: string) => v.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));

const prop = (lines: string[], name: string) =>
  lines.filter((l) => l.startsWith(`${name}:`) || l.startsWith(`${name};`));

describe('renderIcs (RFC 5545 text)', () => {
  it('escapes every line break (CR, LF, CRLF) and \\ ; , in text, drops other control characters, and folds at 75 octets without splitting a character', () => {
    const title = 'a\rBEGIN:VEVENT\nb\r\nc\\d;e,f\x00g\x07h\x1bi\x7fj\tk';
    const description = `${'長い説明、'.repeat(40)}\rSUMMARY:injected 🍣🍣🍣${'x'.repeat(70)}`;
    const text = renderIcs('山田 太郎の予定', [
      entry({ title, description, meetLink: 'https://meet.example/abc\rX-INJECTED:1' }),
    ]);
    const lines = contentLines(text);
    expect(lines.filter((l) => l === 'BEGIN:VEVENT')).toHaveLength(1);
    expect(lines.some((l) => l.startsWith('X-INJECTED') || l.startsWith('SUMMARY:injected'))).toBe(false);
    const [summary] = prop(lines, 'SUMMARY');
    expect(unescape(summary.slice('SUMMARY:'.length))).toBe('a\nBEGIN:VEVENT\nb\nc\\d;e,fghij\tk');
    const [desc] = prop(lines, 'DESCRIPTION');
    expect(unescape(desc.slice('DESCRIPTION:'.length))).toBe(description.replace('\r', '\n'));
    expect(prop(lines, 'URL')).toEqual(['URL:https://meet.example/abcX-INJECTED:1']);
    // Folding splits between characters: every physical line is valid UTF-8 on its own.
    for (const l of text.split('\r\n')) expect(Buffer.from(l, 'utf8').toString('utf8')).toBe(l);
  });

  it("the organizer's name is a quoted parameter value (no backslash escapes in parameters), with no quote or control character", () => {
    const lines = contentLines(renderIcs('x', [entry({ ownerName: 'Yamada; "Taro", Jr.:\r\nX' })]));
    expect(prop(lines, 'ORGANIZER')).toEqual(['ORGANIZER;CN="Yamada; Taro, Jr.:X":urn:intranet:employee:3']);
  });

  it('a private entry is busy time only (予定あり, no description or meeting link) unless the owner shows private details', () => {
    const secret = entry({ title: '通院', description: '内科', meetLink: 'https://meet.example/x', isPrivate: true });
    const busy = contentLines(renderIcs('x', [secret]));
    expect(prop(busy, 'SUMMARY')).toEqual(['SUMMARY:予定あり']);
    expect(prop(busy, 'DESCRIPTION')).toEqual([]);
    expect(prop(busy, 'URL')).toEqual([]);
    expect(prop(busy, 'CLASS')).toEqual(['CLASS:PRIVATE']);
    expect(busy.join('\n')).not.toMatch(/通院|内科|meet\.example/);
    const shown = contentLines(renderIcs('x', [secret], { showPrivateDetails: true }));
    expect(prop(shown, 'SUMMARY')).toEqual(['SUMMARY:通院']);
    expect(prop(shown, 'DESCRIPTION')).toEqual(['DESCRIPTION:内科']);
  });

  it('the organizer and the guests are calendar addresses (mailto:) with their answers, so Outlook and Apple Calendar show who comes; a private entry shown as busy names no one but its owner', () => {
    const emails = new Map([
      [3, 'yamada@example.co.jp'],
      [4, 'sato@example.co.jp'],
      [5, 'suzuki@example.co.jp'],
    ]);
    const meeting = entry({
      guests: [
        { id: 4, name: '佐藤 花子', response: 'ACCEPTED' },
        { id: 5, name: '鈴木 一郎', response: 'DECLINED' },
        { id: 6, name: 'メールなし', response: 'PENDING' },
      ],
      externalGuests: ['partner@example.com'],
    });
    const lines = contentLines(renderIcs('x', [meeting], { emails }));
    expect(prop(lines, 'ORGANIZER')).toEqual(['ORGANIZER;CN="山田 太郎":mailto:yamada@example.co.jp']);
    expect(prop(lines, 'ATTENDEE')).toEqual([
      'ATTENDEE;CN="佐藤 花子";ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED:mailto:sato@example.co.jp',
      'ATTENDEE;CN="鈴木 一郎";ROLE=REQ-PARTICIPANT;PARTSTAT=DECLINED:mailto:suzuki@example.co.jp',
      'ATTENDEE;CN="メールなし";ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION:urn:intranet:employee:6',
      'ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION:mailto:partner@example.com',
    ]);
    const busy = contentLines(renderIcs('x', [{ ...meeting, isPrivate: true }], { emails }));
    expect(prop(busy, 'ATTENDEE')).toEqual([]);
    expect(prop(busy, 'ORGANIZER')).toEqual(['ORGANIZER;CN="山田 太郎":mailto:yamada@example.co.jp']);
    expect(
      prop(
        contentLines(renderIcs('x', [{ ...meeting, isPrivate: true }], { emails, showPrivateDetails: true })),
        'ATTENDEE',
      ),
    ).toHaveLength(4);
  });

  it('an address that is not a plain e-mail address is never written into a content line', () => {
    const lines = contentLines(
      renderIcs('x', [entry({ externalGuests: ['a@b.c\r\nX-EVIL:1', 'mailto:x@y.z'] })], {
        emails: new Map([[3, 'bad address']]),
      }),
    );
    expect(prop(lines, 'ORGANIZER')).toEqual(['ORGANIZER;CN="山田 太郎":urn:intranet:employee:3']);
    expect(prop(lines, 'ATTENDEE')).toEqual([]);
    expect(lines.join('\n')).not.toContain('X-EVIL');
  });
});
