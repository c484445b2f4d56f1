/** The demo blog's structure: its categories and tags (written by seedDemoBlog in demo-blog.ts). */

/** The demo blog's categories: who reads them (departments by name, or the company's managers) and whether members post. */
export const CATEGORIES = [
  { name: '社内報', color: '#1f6feb', membersMayPost: false, departments: 'all' },
  { name: '総務からのお知らせ', color: '#bf3989', membersMayPost: false, departments: 'all' },
  { name: '開発ブログ', color: '#1a7f37', membersMayPost: true, departments: ['開発', '品質保証'] },
  { name: '営業レポート', color: '#bc4c00', membersMayPost: true, departments: ['営業', 'マーケティング'] },
  { name: '部活動・サークル', color: '#8250df', membersMayPost: true, departments: 'all' },
  { name: '役員', color: '#cf222e', membersMayPost: true, departments: 'managers' },
] as const;
export type CategoryName = (typeof CATEGORIES)[number]['name'];

export const TAGS = [
  'お知らせ',
  'イベント',
  '福利厚生',
  '健康管理',
  '社内システム',
  'リリース',
  '勉強会',
  '技術',
  '採用',
  '表彰',
  '営業',
  '経営',
];
