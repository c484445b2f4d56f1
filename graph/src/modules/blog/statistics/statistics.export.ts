import type { Response } from 'express';
import ExcelJS from 'exceljs';
import { startXlsxDownload } from '../../../platform/xlsx-export.js';
import type { ReportInput } from './statistics.service.js';
import type { BlogPostStatistics, BlogStatistics } from './statistics.types.js';

type Cell = string | number | Date | null;
interface Sheet {
  name: string;
  /** Lines above the table (the period, the filters). */
  notes: string[];
  header: string[];
  rows: Cell[][];
  /** Column formats by index (dates, percentages). */
  formats?: Record<number, string>;
}

const slash = (d: string) => d.replaceAll('-', '/');
const dateCell = (d: string) => new Date(`${d}T00:00:00Z`);

/**
 * The whole report (every row of its tables) as an .xlsx: a summary sheet and one sheet per table,
 * each headed by the period (and, for 社員別, the filters shown on screen), Japanese headers, dates as
 * date cells.
 */
export async function sendStatisticsXlsx(res: Response, s: BlogStatistics, f: ReportInput): Promise<void> {
  const period = `期間: ${slash(s.startDate)} 〜 ${slash(s.endDate)}`;
  const previous = `前期間: ${slash(s.previousStartDate)} 〜 ${slash(s.previousEndDate)}`;
  const categoryName = f.employeeCategoryId
    ? (s.categories.find((c) => c.id === Number(f.employeeCategoryId))?.name ?? null)
    : null;
  const filters = [
    f.employeeName && `氏名「${String(f.employeeName)}」`,
    f.employeeDepartment && `部署「${String(f.employeeDepartment)}」`,
    categoryName && `カテゴリ「${categoryName}」`,
    f.employeesFirst && `上位${String(f.employeesFirst)}件`,
  ].filter(Boolean);
  const ranked = (
    name: string,
    list: BlogPostStatistics[],
    header: string,
    count: (p: BlogPostStatistics) => number,
  ): Sheet => ({
    name,
    notes: [period],
    header: ['順位', 'タイトル', '投稿者', 'カテゴリ', header],
    rows: list.map((p, i) => [i + 1, p.title, p.authorName, p.categoryName, count(p)]),
  });
  const figures = [
    ['投稿', s.totals.posts, s.previousTotals.posts],
    ['いいね', s.totals.likes, s.previousTotals.likes],
    ['閲覧', s.totals.views, s.previousTotals.views],
    ['コメント', s.totals.comments, s.previousTotals.comments],
  ] as const;
  const sheets: Sheet[] = [
    {
      name: '概要',
      notes: [period, previous],
      header: ['項目', '今期間', '前期間', '増減'],
      rows: figures.map(([k, now, before]) => [k, now, before, now - before]),
    },
    {
      name: 'カテゴリ別',
      notes: [period],
      header: ['カテゴリ', '投稿数', 'いいね', '閲覧', 'コメント', '1位', '2位', '3位', '4位', '5位'],
      rows: s.byCategory.map((c) => [
        c.categoryName,
        c.totalPosts,
        c.likes,
        c.views,
        c.comments,
        ...[0, 1, 2, 3, 4].map((i) => c.top[i]?.title ?? null),
      ]),
    },
    ranked('いいねの多い投稿', s.mostLiked, 'いいね', (p) => p.likeCount),
    ranked('閲覧の多い投稿', s.mostViewed, '閲覧', (p) => p.viewCount),
    ranked('コメントの多い投稿', s.mostCommented, 'コメント', (p) => p.commentCount),
    {
      name: '投稿別',
      notes: [period],
      header: ['タイトル', 'カテゴリ', '投稿者', '公開開始日', 'いいね', '閲覧', 'コメント', 'リーチ'],
      rows: s.posts.map((p) => [
        p.title,
        p.categoryName,
        p.authorName,
        dateCell(p.publishStart),
        p.likeCount,
        p.viewCount,
        p.commentCount,
        p.reach,
      ]),
      formats: { 3: 'yyyy/mm/dd', 7: '0%' },
    },
    {
      name: '社員別',
      notes: [period, `絞り込み: ${filters.length ? filters.join('、') : 'なし'}`],
      header: ['社員', '部署', 'いいね', 'コメント', '閲覧', '投稿', ...s.categories.map((c) => c.name)],
      rows: s.employees.map((e) => [
        e.employeeName,
        e.departmentName,
        e.likeCount,
        e.commentCount,
        e.viewCount,
        e.postCount,
        ...s.categories.map((c) => e.byCategory.find((x) => x.categoryId === c.id)?.count ?? 0),
      ]),
    },
  ];
  const stamp = `${s.startDate.replaceAll('-', '')}-${s.endDate.replaceAll('-', '')}`;
  startXlsxDownload(res, `月別ブログ統計_${stamp}.xlsx`, `blog_statistics_${stamp}.xlsx`);
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: res, useStyles: true, useSharedStrings: false });
  try {
    for (const sheet of sheets) {
      const ws = wb.addWorksheet(sheet.name, { views: [{ state: 'frozen', ySplit: sheet.notes.length + 2 }] });
      ws.columns = sheet.header.map((h, i) => ({
        key: String(i),
        width: i === 0 || h === 'タイトル' ? 36 : 14,
        style: sheet.formats?.[i] ? { numFmt: sheet.formats[i] } : {},
      }));
      ws.addRow(['月別ブログ統計']).commit();
      for (const note of sheet.notes) ws.addRow([note]).commit();
      ws.addRow([]).commit();
      const header = ws.addRow(sheet.header);
      header.font = { bold: true };
      header.commit();
      for (const row of sheet.rows) ws.addRow(row).commit();
      ws.commit();
    }
    await wb.commit();
  } catch (err) {
    res.destroy(err as Error);
  }
}
