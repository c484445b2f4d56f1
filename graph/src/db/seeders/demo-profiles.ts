import type { EntityManager } from '@mikro-orm/postgresql';
import { renderHtml, type RichTextDocument } from '../../lib/rich-text/index.js';
import { pgTextArray } from '../../platform/sql.js';
import {
  EMPTY_PROFILE,
  ProfileVisibility,
  searchTextOf,
  type ProfileValues,
} from '../../modules/profiles/profile.fields.js';

/** What people of each department write of themselves (titles, skills), in the demo company's department names. */
const BY_DEPARTMENT: Record<string, { titles: string[]; skills: string[][] }> = {
  開発: {
    titles: ['エンジニア', 'シニアエンジニア', 'テックリード', 'インフラエンジニア'],
    skills: [
      ['TypeScript', 'React', 'PostgreSQL'],
      ['Python', '機械学習', 'SQL'],
      ['Linux', 'AWS', 'ネットワーク設計'],
      ['Java', 'Spring Boot'],
      ['Go', 'Kubernetes'],
    ],
  },
  人材: {
    titles: ['採用担当', '人事主任', '労務担当'],
    skills: [
      ['採用面接', '労務管理'],
      ['社会保険手続き', 'Excel'],
      ['研修企画', 'キャリア面談'],
    ],
  },
  営業: {
    titles: ['営業', '営業主任', '営業課長'],
    skills: [
      ['法人営業', '提案書作成'],
      ['顧客管理', 'Salesforce'],
      ['見積作成', '価格交渉', 'Excel'],
    ],
  },
  総務: {
    titles: ['総務担当', '総務主任'],
    skills: [
      ['契約書管理', '備品管理'],
      ['社内イベント企画', 'PowerPoint'],
      ['衛生管理', '防災訓練'],
    ],
  },
  経理: {
    titles: ['経理担当', '経理主任'],
    skills: [
      ['簿記', '決算業務'],
      ['税務申告', '簿記', '会計ソフト'],
      ['請求書処理', '経費精算'],
    ],
  },
  品質保証: {
    titles: ['QAエンジニア', '品質保証リーダー'],
    skills: [
      ['テスト設計', 'Selenium'],
      ['ISO 9001', '品質監査'],
      ['不具合分析', 'Python'],
    ],
  },
  マーケティング: {
    titles: ['マーケター', 'デザイナー', '広報担当'],
    skills: [
      ['SEO', 'Google Analytics'],
      ['Illustrator', 'Photoshop', 'Figma'],
      ['プレスリリース', 'SNS運用'],
    ],
  },
};
const LANGUAGES = [
  ['日本語', '英語（TOEIC 820）'],
  ['日本語', '中国語（HSK 5級）'],
  ['日本語'],
  ['日本語', '英語（日常会話）', '韓国語（初級）'],
  ['日本語', 'ベトナム語'],
];
const EDUCATION = [
  ['東京理科大学 工学部'],
  ['大阪大学 経済学部'],
  ['神戸大学 経営学部'],
  ['早稲田大学 商学部'],
  ['姫路工業高校'],
  ['京都大学 文学部'],
];
const HOBBIES = [
  '釣り、キャンプ',
  '写真撮影（風景）',
  'ランニング（月に一度はハーフマラソン）',
  '料理、パン作り',
  '読書（ミステリー）',
  '将棋',
  'ギター',
  '登山',
];
const TALENTS = ['暗算', '書道（五段）', 'けん玉', 'そろばん（二級）', 'ピアノ', '早起き', '手品', '似顔絵'];
const ABOUT = [
  'お客様と長くお付き合いできる提案を心がけています。お気軽に声をかけてください。',
  '業務の効率化が好きです。Excel や自動化のことなら相談に乗ります。',
  '入社して間もないので、いろいろ教えてください。週末はよく山に登っています。',
  '社内の困りごとを減らすのが仕事です。小さなことでもご連絡ください。',
];
const CITIES = ['東京都品川区', '兵庫県姫路市', '大阪府大阪市北区', '神奈川県川崎市', '埼玉県さいたま市'];

const doc = (text: string): RichTextDocument => ({ blocks: [{ type: 'paragraph', data: { text } }] });

/**
 * Profiles for most of the demo company (every 7th person has none yet, as in a directory people
 * are still filling in), in its departments' words: a search for 中国語, Python or 簿記 finds someone.
 * A few likes and comments between colleagues. Deterministic.
 */
export async function seedDemoProfiles(em: EntityManager): Promise<{ profiles: number }> {
  const people: { id: number; department: string | null; status: string }[] = await em.execute(
    `select e.id, d.name as department, e.status from employee e left join department d on d.id = e.department_id order by e.id`,
  );
  const profileIds: { id: number; owner: number }[] = [];
  for (const [i, person] of people.entries()) {
    if (i % 7 === 6) continue;
    const kind = BY_DEPARTMENT[person.department ?? ''] ?? BY_DEPARTMENT['総務']!;
    const about = ABOUT[i % ABOUT.length]!;
    const values: ProfileValues = {
      ...EMPTY_PROFILE,
      title: kind.titles[i % kind.titles.length]!,
      address: `${CITIES[i % CITIES.length]}${(i % 9) + 1}丁目`,
      addressVisibility: i % 3 === 0 ? ProfileVisibility.PRIVATE : ProfileVisibility.DEPARTMENT,
      phone: `090-${String(1000 + i * 37).slice(-4)}-${String(2000 + i * 53).slice(-4)}`,
      phoneVisibility: i % 4 === 0 ? ProfileVisibility.DEPARTMENT : ProfileVisibility.EVERYONE,
      skills: kind.skills[i % kind.skills.length]!,
      languages: LANGUAGES[i % LANGUAGES.length]!,
      workExperience:
        i % 2 === 0
          ? [`${2015 + (i % 8)}年 入社`, `${person.department ?? '総務'}部に配属`]
          : [`前職: ${['商社', 'SIer', '小売', '製造業'][i % 4]}（${(i % 5) + 2}年）`],
      education: EDUCATION[i % EDUCATION.length]!,
      aboutMe: doc(about),
      aboutMeHtml: renderHtml(doc(about)),
      hobbies: HOBBIES[i % HOBBIES.length]!,
      talents: i % 3 === 1 ? TALENTS[i % TALENTS.length]! : '',
    };
    const [row]: { id: number }[] = await em.execute(
      `insert into profile (employee_id, title, address, address_visibility, phone, phone_visibility, skills, languages, work_experience, education,
                            about_me, about_me_html, hobbies, talents, search_text)
       values (?, ?, ?, ?, ?, ?, ?::text[], ?::text[], ?::text[], ?::text[], ?::jsonb, ?, ?, ?, ?) returning id`,
      [
        person.id,
        values.title,
        values.address,
        values.addressVisibility,
        values.phone,
        values.phoneVisibility,
        pgTextArray(values.skills),
        pgTextArray(values.languages),
        pgTextArray(values.workExperience),
        pgTextArray(values.education),
        JSON.stringify(values.aboutMe),
        values.aboutMeHtml,
        values.hobbies,
        values.talents,
        searchTextOf(values),
      ],
    );
    profileIds.push({ id: row!.id, owner: person.id });
  }
  // Likes and a short exchange on some profiles, from colleagues further down the list.
  for (const [i, p] of profileIds.entries()) {
    if (i % 3 !== 0) continue;
    const fans = [1, 2, 5].map((k) => profileIds[(i + k) % profileIds.length]!.owner);
    for (const fan of fans)
      await em.execute(`insert into profile_like (profile_id, employee_id) values (?, ?) on conflict do nothing`, [
        p.id,
        fan,
      ]);
    if (i % 6 === 0) {
      const [c]: { id: number }[] = await em.execute(
        `insert into profile_comment (profile_id, author_id, content) values (?, ?, ?) returning id`,
        [p.id, fans[0], '先日はありがとうございました！またお話を聞かせてください。'],
      );
      await em.execute(`insert into profile_comment (profile_id, author_id, parent_id, content) values (?, ?, ?, ?)`, [
        p.id,
        p.owner,
        c!.id,
        'こちらこそ、いつでもどうぞ。',
      ]);
    }
  }
  return { profiles: profileIds.length };
}
