import type { ScheduleSnapshot } from '@intranet/schema/events/schedule.events';
import { addDays } from './google-mapping.js';

/** Control characters RFC 5545 allows in no value: every C0 one but HTAB, and DEL (line breaks are escaped before). */
const CONTROLS = /[\x00-\x08\x0a-\x1f\x7f]/g;

/**
 * RFC 5545 3.3.11 TEXT: a line break of any kind (CRLF, a lone CR, a lone LF) becomes `\n`, other
 * control characters are dropped, and `\`, `;` and `,` are escaped: nothing in a value can end its
 * content line or start another (a title with a bare CR injected lines into guests' feeds).
 */
export const escapeText = (s: string) =>
  s
    .replace(/[\\;,]/g, (c) => `\\${c}`)
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(CONTROLS, '');

/** RFC 5545 3.2: a parameter value has no escapes; quoted (it may hold ; , :), without DQUOTE or control characters. */
const paramValue = (s: string) =>
  `"${s
    .replace(/\r\n|\r|\n/g, '')
    .replace(CONTROLS, '')
    .replace(/"/g, '')}"`;

/** A URI value (no escapes in URIs): control characters dropped. */
const uri = (s: string) => s.replace(/[\x00-\x1f\x7f]/g, '');

/** What a feed shows of its owner's private entries (that the feed URL might reach someone else). */
export interface IcsOptions {
  /** Titles, descriptions, meeting links and guests of private entries; otherwise they are busy time (予定あり). */
  showPrivateDetails?: boolean;
  /** Employees' e-mail addresses by id: the organizer's and guests' calendar addresses. */
  emails?: ReadonlyMap<number, string>;
}

/** A plain address, nothing a content line could be broken with (a guest's address is typed by people). */
const MAIL = /^[^\s@<>"(),;:\\[\]\x00-\x1f\x7f]+@[^\s@<>"(),;:\\[\]\x00-\x1f\x7f]+$/;

/** RFC 5545 3.3.3 CAL-ADDRESS: mailto: where the employee has a plain address, else their id. */
const calAddress = (id: number, emails?: ReadonlyMap<number, string>) => {
  const mail = emails?.get(id);
  return mail && MAIL.test(mail) ? `mailto:${mail}` : `urn:intranet:employee:${id}`;
};

const PARTSTAT = { PENDING: 'NEEDS-ACTION', ACCEPTED: 'ACCEPTED', DECLINED: 'DECLINED' } as const;

/** The SUMMARY of a private entry when its details are not shown. */
export const BUSY = '予定あり';

/** Folds a content line at 75 octets (UTF-8 aware: never splits a character). */
function fold(line: string): string {
  const out: string[] = [];
  let cur = '';
  let bytes = 0;
  for (const ch of line) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > (out.length ? 74 : 75)) {
      out.push(cur);
      cur = '';
      bytes = 0;
    }
    cur += ch;
    bytes += n;
  }
  out.push(cur);
  return out.join('\r\n ');
}

const compactDate = (d: string) => d.replace(/-/g, '');
const compactTime = (t: string) => t.replace(/:/g, '').slice(0, 6);
const utcStamp = (iso: string) => new Date(iso).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');

/**
 * The calendar text. Entries marked private appear as busy time only (予定あり, no description or
 * meeting link) unless `showPrivateDetails`: the feed URL is a bearer secret that may leak.
 */
export function renderIcs(name: string, entries: ScheduleSnapshot[], options: IcsOptions = {}): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//intranet//schedule//JA',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(name)}`,
    'X-WR-TIMEZONE:Asia/Tokyo',
    'BEGIN:VTIMEZONE',
    'TZID:Asia/Tokyo',
    'BEGIN:STANDARD',
    'DTSTART:19700101T000000',
    'TZOFFSETFROM:+0900',
    'TZOFFSETTO:+0900',
    'TZNAME:JST',
    'END:STANDARD',
    'END:VTIMEZONE',
  ];
  for (const s of entries) {
    lines.push(
      'BEGIN:VEVENT',
      `UID:schedule-${s.id}@intranet`,
      `DTSTAMP:${utcStamp(s.updatedAt)}`,
      `LAST-MODIFIED:${utcStamp(s.updatedAt)}`,
      `SEQUENCE:${s.version}`,
    );
    if (s.isAllDay) {
      lines.push(
        `DTSTART;VALUE=DATE:${compactDate(s.startDate)}`,
        `DTEND;VALUE=DATE:${compactDate(addDays(s.endDate, 1))}`,
      );
    } else {
      lines.push(
        `DTSTART;TZID=Asia/Tokyo:${compactDate(s.startDate)}T${compactTime(s.startTime!)}`,
        `DTEND;TZID=Asia/Tokyo:${compactDate(s.endDate)}T${compactTime(s.endTime!)}`,
      );
    }
    const details = !s.isPrivate || options.showPrivateDetails === true;
    lines.push(`SUMMARY:${escapeText(details ? s.title : BUSY)}`);
    if (details && s.description) lines.push(`DESCRIPTION:${escapeText(s.description)}`);
    if (details && s.meetLink) lines.push(`URL:${uri(s.meetLink)}`);
    lines.push(`ORGANIZER;CN=${paramValue(s.ownerName)}:${calAddress(s.ownerId, options.emails)}`);
    if (details) {
      for (const g of s.guests)
        lines.push(
          `ATTENDEE;CN=${paramValue(g.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=${PARTSTAT[g.response]}:${calAddress(g.id, options.emails)}`,
        );
      for (const mail of s.externalGuests)
        if (MAIL.test(mail)) lines.push(`ATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION:mailto:${mail}`);
    }
    lines.push(`CLASS:${s.isPrivate ? 'PRIVATE' : 'PUBLIC'}`, 'TRANSP:OPAQUE', 'END:VEVENT');
  }
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}
