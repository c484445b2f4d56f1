import type { DemoFile } from './demo-blog-files.js';

/** What the demo blog holds: its categories, tags and posts (written by seedDemoBlog in demo-blog.ts). */
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

export interface Seed {
  category: CategoryName;
  title: string;
  body: (string | { h: string } | { list: string[] })[];
  tags: string[];
  /** Days before today the post went out. */
  ago: number;
  /** Who writes it: a login of the demo, or 'member' (a member of the category who may post). */
  by?: string;
  pin?: boolean;
  /** Publish start this many days after today (a scheduled post). */
  scheduledIn?: number;
  /** The publish window ended this many days ago (an expired post). */
  endedAgo?: number;
  noComments?: boolean;
  /** The one attachment (a picture or a PDF), when the seeder has a file store. */
  file?: DemoFile;
}

export const POSTS: Seed[] = [
  {
    category: '総務からのお知らせ',
    title: '【重要】年末年始休業のお知らせ',
    body: [
      '年末年始の休業期間についてお知らせします。',
      {
        list: [
          '休業期間: 12月28日（土）〜 1月5日（日）',
          '1月6日（月）から通常営業です',
          '休業中の緊急連絡は総務の当番までお願いします',
        ],
      },
      '取引先への案内メールは各部署で送付をお願いします。',
    ],
    tags: ['お知らせ'],
    ago: 1,
    by: 'admin',
    pin: true,
  },
  {
    category: '社内報',
    title: '全社キックオフミーティング開催のご案内',
    body: [
      '来期の方針を共有する全社キックオフを開催します。',
      { h: '日時・会場' },
      { list: ['日時: 来月第2金曜日 14:00〜17:00', '会場: 東京本社 大会議室（姫路・大阪はオンライン参加）'] },
      '終了後は懇親会を予定しています。ぜひご参加ください。',
    ],
    tags: ['イベント', '経営'],
    ago: 2,
    by: 'sysadmin',
    pin: true,
    file: 'kickoff',
  },
  {
    category: '総務からのお知らせ',
    title: '定期健康診断の予約受付を開始しました',
    body: [
      '今年度の定期健康診断の予約受付を開始しました。',
      '<b>今月末まで</b>に、社内ポータルの予約フォームから希望日を登録してください。',
      '再検査の対象となった方には別途ご連絡します。',
    ],
    tags: ['健康管理', 'お知らせ'],
    ago: 6,
    by: 'admin',
  },
  {
    category: '開発ブログ',
    title: '社内ポータルのスケジュール画面を刷新しました',
    body: [
      '週表示のスケジュール画面を作り直しました。表示が速くなり、スマートフォンでも見やすくなっています。',
      { h: '主な変更点' },
      {
        list: [
          '週の切り替えがすぐに反映されるようになりました',
          '他の人の予定の変更がリロードなしで届きます',
          '非公開の予定は「予定あり」と表示されます',
        ],
      },
      '不具合や要望があれば開発チームまでお気軽にどうぞ。',
    ],
    tags: ['リリース', '社内システム'],
    ago: 3,
  },
  {
    category: '営業レポート',
    title: '大阪拠点 第3四半期の振り返り',
    body: [
      '大阪拠点の第3四半期の活動を振り返ります。',
      '新規顧客は前年同期比で約1.3倍となりました。特に製造業向けの提案が好調です。',
      '来期は既存顧客へのフォローを強化していきます。',
    ],
    tags: ['営業'],
    ago: 8,
  },
  {
    category: '部活動・サークル',
    title: 'フットサル部 11月の活動報告',
    body: [
      '今月も毎週水曜日の夜に活動しました。参加者は延べ24名でした。',
      '初心者も大歓迎です。見学だけでもお気軽にどうぞ！',
    ],
    tags: ['イベント'],
    ago: 9,
    file: 'pitch',
  },
  {
    category: '社内報',
    title: '新しく入社された皆さんをご紹介します',
    body: [
      '今月、新たに4名の仲間が加わりました。',
      { list: ['開発部: 2名（バックエンド、インフラ）', '営業部: 1名', '総務部: 1名'] },
      '見かけたらぜひ声をかけてください。',
    ],
    tags: ['採用'],
    ago: 12,
    by: 'sysadmin',
  },
  {
    category: '開発ブログ',
    title: 'TypeScript 勉強会を開催しました',
    body: [
      '先週、社内向けの TypeScript 勉強会を開催しました。参加者は15名でした。',
      { h: '取り上げたテーマ' },
      { list: ['型の絞り込み（narrowing）', 'ジェネリクスの基本', 'zod による入力チェック'] },
      '資料は開発チームの共有フォルダにあります。次回は React を予定しています。',
    ],
    tags: ['勉強会', '技術'],
    ago: 14,
  },
  {
    category: '総務からのお知らせ',
    title: 'オフィスの座席レイアウト変更について',
    body: [
      '来週末に東京本社の座席レイアウトを変更します。',
      '金曜日の終業時までに、私物を段ボールにまとめておいてください。段ボールは総務で用意しています。',
    ],
    tags: ['お知らせ'],
    ago: 16,
    by: 'admin',
  },
  {
    category: '役員',
    title: '来期予算策定のスケジュール',
    body: [
      '来期予算の策定スケジュールを共有します。各部門長は来月15日までに部門案を提出してください。',
      '<i>本カテゴリの内容は社外秘です。</i>',
    ],
    tags: ['経営'],
    ago: 5,
    by: 'admin',
  },
  {
    category: '役員',
    title: '取締役会の議事要旨（非公開）',
    body: ['先日の取締役会の議事要旨です。人事制度の見直し案について継続審議となりました。'],
    tags: ['経営'],
    ago: 20,
    by: 'sysadmin',
  },
  {
    category: '営業レポート',
    title: '展示会「製造業DX展」出展レポート',
    body: [
      '3日間の展示会で、ブースへの来場者は約420名でした。',
      '名刺交換をした方へのフォローメールは今週中に送付予定です。',
      { list: ['デモの反応が特に良かったのは在庫管理の画面', '来年は出展スペースを広げる方向で検討中'] },
    ],
    tags: ['営業', 'イベント'],
    ago: 22,
  },
  {
    category: '部活動・サークル',
    title: '写真部 秋の撮影会のお知らせ',
    body: [
      '紅葉の季節に合わせて、週末に撮影会を開催します。',
      'カメラはスマートフォンでも大丈夫です。参加希望の方はコメントでお知らせください。',
    ],
    tags: ['イベント'],
    ago: 25,
    file: 'autumn',
  },
  {
    category: '開発ブログ',
    title: '障害報告: 朝のログイン遅延について',
    body: [
      '昨日の朝9時台に、社内ポータルへのログインが遅くなる事象が発生しました。',
      { h: '原因と対策' },
      '認証処理のデータベース接続が一時的に不足していました。接続数の上限を見直し、監視の閾値を追加しました。',
      'ご迷惑をおかけしました。',
    ],
    tags: ['社内システム'],
    ago: 27,
  },
  {
    category: '社内報',
    title: '永年勤続表彰のお知らせ',
    body: [
      '今年の永年勤続表彰の対象者が決まりました。10年勤続の方が5名、20年勤続の方が2名です。',
      '表彰式はキックオフミーティングの中で行います。',
    ],
    tags: ['表彰'],
    ago: 30,
    by: 'sysadmin',
  },
  {
    category: '総務からのお知らせ',
    title: '防災訓練を実施します',
    body: [
      '来月上旬に全拠点で防災訓練を実施します。',
      '当日は10時に訓練放送が流れます。放送に従って避難経路を確認してください。',
    ],
    tags: ['お知らせ'],
    ago: 33,
    by: 'admin',
    file: 'drillPdf',
  },
  {
    category: '営業レポート',
    title: '新規顧客向け提案資料のテンプレートを更新しました',
    body: [
      '提案資料のテンプレートを最新の製品ラインナップに合わせて更新しました。',
      '旧テンプレートは来月末で使用終了となります。',
    ],
    tags: ['営業'],
    ago: 36,
  },
  {
    category: '開発ブログ',
    title: 'コードレビューのガイドラインを公開しました',
    body: [
      'チームで合意したコードレビューのガイドラインを公開しました。',
      { list: ['レビューは1営業日以内に着手する', '指摘には理由を添える', '良いところも積極的にコメントする'] },
    ],
    tags: ['技術'],
    ago: 40,
  },
  {
    category: '部活動・サークル',
    title: 'ランニング部 ハーフマラソン完走しました',
    body: [
      'ランニング部から6名が市民ハーフマラソンに参加し、全員完走しました！',
      '次は春のフルマラソンを目標に練習を続けます。',
    ],
    tags: ['イベント'],
    ago: 44,
  },
  {
    category: '社内報',
    title: '社員食堂のメニューがリニューアル',
    body: [
      '東京本社の社員食堂のメニューが新しくなりました。日替わりの定食に加えて、サラダバーが登場しています。',
      'ご意見は食堂入口のアンケート箱へどうぞ。',
    ],
    tags: ['福利厚生'],
    ago: 48,
    by: 'sysadmin',
  },
  {
    category: '総務からのお知らせ',
    title: '経費精算の締め日変更について',
    body: [
      '来月から経費精算の締め日を毎月20日に変更します。',
      '20日を過ぎた申請は翌月の処理となりますのでご注意ください。',
    ],
    tags: ['お知らせ'],
    ago: 52,
    by: 'admin',
  },
  {
    category: '開発ブログ',
    title: 'パソコンの入れ替えスケジュール（開発部）',
    body: [
      'リース満了に伴い、開発部のパソコンを順次入れ替えます。',
      '対象者には個別にご連絡します。データの移行は各自でお願いします。',
    ],
    tags: ['社内システム'],
    ago: 55,
  },
  {
    category: '営業レポート',
    title: '姫路拠点 お客様感謝デーのご報告',
    body: [
      '姫路拠点でお客様感謝デーを開催し、約60社にご来場いただきました。',
      'アンケートでは満足度が高く、来年も開催を希望する声を多くいただきました。',
    ],
    tags: ['営業', 'イベント'],
    ago: 58,
  },
  {
    category: '社内報',
    title: '夏季休暇の取得状況について',
    body: [
      '今年の夏季休暇の取得率は92%でした。ご協力ありがとうございました。',
      'まだ取得していない方は、年内の取得をご検討ください。',
    ],
    tags: ['福利厚生'],
    ago: 63,
    by: 'sysadmin',
  },
  {
    category: '部活動・サークル',
    title: 'ボードゲーム部 部員募集中',
    body: [
      '毎月第3金曜日の終業後にボードゲームで遊んでいます。',
      '初めての方にもルールを説明しますので、気軽に参加してください。',
    ],
    tags: ['イベント'],
    ago: 67,
  },
  {
    category: '開発ブログ',
    title: '社内ポータルにブログ機能を追加しました',
    body: [
      '社内ポータルにブログ機能が加わりました。部署のお知らせや日々の気づきを気軽に共有してください。',
      { h: '使い方' },
      {
        list: [
          '一覧の「作成」から記事を書けます',
          '見出しやリスト、画像も使えます',
          '重要なお知らせはピン留めすると「速報」に表示されます',
        ],
      },
    ],
    tags: ['リリース', '社内システム'],
    ago: 70,
  },
  {
    category: '総務からのお知らせ',
    title: 'インフルエンザ予防接種の費用補助について',
    body: [
      '今年もインフルエンザ予防接種の費用を補助します。',
      '領収書を添えて、12月末までに経費精算で申請してください。',
    ],
    tags: ['健康管理', '福利厚生'],
    ago: 75,
    by: 'admin',
  },
  {
    category: '営業レポート',
    title: '上期の受注実績まとめ',
    body: [
      '上期の受注実績をまとめました。目標に対して104%の達成となりました。',
      '皆さんのご協力に感謝します。下期も引き続きよろしくお願いします。',
    ],
    tags: ['営業'],
    ago: 80,
  },
  {
    category: '社内報',
    title: 'ノー残業デーの取り組みについて',
    body: [
      '毎週水曜日をノー残業デーとしています。',
      '18時を目安に業務を切り上げ、家族や趣味の時間を大切にしましょう。',
    ],
    tags: ['福利厚生'],
    ago: 86,
    by: 'sysadmin',
  },
  {
    category: '開発ブログ',
    title: 'データベースの定期メンテナンスのお知らせ',
    body: [
      '今週土曜日の深夜に、社内システムのデータベースのメンテナンスを行います。',
      '作業中（午前1時〜3時）は社内ポータルが利用できません。',
    ],
    tags: ['社内システム', 'お知らせ'],
    ago: 90,
  },
  {
    category: '部活動・サークル',
    title: '料理部 秋の味覚を楽しむ会',
    body: [
      '料理部で秋の味覚を楽しむ会を開きました。きのこの炊き込みご飯と豚汁を作りました。',
      '次回のテーマは「おせち料理」です。',
    ],
    tags: ['イベント'],
    ago: 95,
  },
  {
    category: '総務からのお知らせ',
    title: '社内報の原稿を募集しています',
    body: [
      '社内報に掲載する原稿を募集しています。部署の紹介や趣味の話題など、テーマは自由です。',
      '採用された方には図書カードをお送りします。',
    ],
    tags: ['お知らせ'],
    ago: 100,
    by: 'admin',
  },
  {
    category: '営業レポート',
    title: '展示会出展の準備について',
    body: [
      '来月の展示会に向けて、パネルとデモ機の準備を進めています。',
      '説明員のシフト表を共有フォルダに置きましたので、ご確認ください。',
    ],
    tags: ['営業', 'イベント'],
    ago: 104,
  },
  {
    category: '開発ブログ',
    title: '新しいテスト環境を用意しました',
    body: [
      '本番と同じ構成のテスト環境を用意しました。',
      'リリース前の確認はこの環境で行ってください。アカウントが必要な方は開発チームまで。',
    ],
    tags: ['技術'],
    ago: 110,
  },
  {
    category: '社内報',
    title: '創立記念日のお祝い',
    body: [
      'おかげさまで、当社は創立30周年を迎えました。',
      'これまで支えてくださった皆さんに感謝いたします。記念品は各拠点でお配りします。',
    ],
    tags: ['イベント', '表彰'],
    ago: 118,
    by: 'sysadmin',
  },
  // A post whose publish start is still ahead: its author and 管理者 see it, marked 公開予定.
  {
    category: '総務からのお知らせ',
    title: '【予告】来月からの新しい勤怠システムについて',
    body: ['来月から勤怠の打刻を新しいシステムで行います。', '操作説明会の日程は追ってお知らせします。'],
    tags: ['社内システム', 'お知らせ'],
    ago: 0,
    by: 'admin',
    scheduledIn: 3,
  },
  // A post whose window has ended: its author and 管理者 see it, marked 公開終了.
  {
    category: '総務からのお知らせ',
    title: '夏季休暇の申請受付（受付終了）',
    body: ['夏季休暇の申請受付は終了しました。'],
    tags: ['お知らせ', '福利厚生'],
    ago: 120,
    by: 'admin',
    endedAgo: 30,
    noComments: true,
  },
];

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
