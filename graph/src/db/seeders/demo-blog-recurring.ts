import type { Seed } from './demo-blog-posts.js';

/** Monthly posts of the recurring kinds, to give the feed a few months of history. */
export function recurring(): Seed[] {
  const out: Seed[] = [];
  for (let m = 0; m < 4; m++) {
    const ago = 4 + m * 30;
    out.push({
      category: '社内報',
      title: `今月の社員紹介（${['営業部', '開発部', '経理部', '品質保証部'][m]}）`,
      body: [
        `今月は${['営業部', '開発部', '経理部', '品質保証部'][m]}のメンバーにお話を伺いました。`,
        '仕事で大切にしていること、休日の過ごし方などを紹介します。',
      ],
      tags: ['採用'],
      ago: ago + 3,
      by: 'sysadmin',
    });
    out.push({
      category: '総務からのお知らせ',
      title: `安全衛生委員会だより（${m + 1}号）`,
      body: [
        '今月の安全衛生委員会で話し合った内容をお知らせします。',
        { list: ['長時間労働の状況確認', 'オフィスの温度・湿度の管理', 'ストレスチェックの実施時期'] },
      ],
      tags: ['健康管理'],
      ago: ago + 7,
      by: 'admin',
    });
    out.push({
      category: '開発ブログ',
      title: `開発チーム 月次リリースノート（${m + 1}）`,
      body: [
        '今月リリースした機能と修正をまとめました。',
        { list: ['画面の表示速度の改善', '検索条件の保存', '細かな不具合の修正'] },
        '詳しくは各機能の記事をご覧ください。',
      ],
      tags: ['リリース'],
      ago: ago + 1,
    });
    out.push({
      category: '営業レポート',
      title: `月次営業会議の要点（${m + 1}）`,
      body: [
        '月次営業会議の要点を共有します。',
        '重点顧客へのアプローチ状況と、来月の展示会の準備について確認しました。',
      ],
      tags: ['営業'],
      ago: ago + 10,
    });
    out.push({
      category: '部活動・サークル',
      title: `サークル活動カレンダー（${m + 1}）`,
      body: ['今月のサークル活動の予定をまとめました。どなたでも見学できます。'],
      tags: ['イベント'],
      ago: ago + 12,
    });
    out.push({
      category: '社内報',
      title: `社長メッセージ（${m + 1}）`,
      body: [
        '日頃のご尽力に感謝します。',
        '変化の大きい時期ですが、一人ひとりが挑戦を楽しめる会社でありたいと考えています。',
      ],
      tags: ['経営'],
      ago: ago + 15,
      by: 'sysadmin',
    });
  }
  return out;
}
