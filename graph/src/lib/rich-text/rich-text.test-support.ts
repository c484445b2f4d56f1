/** What the blog's editor (Editor.js 2 with header, list 2, image and underline tools) saves. */
export const EDITOR_OUTPUT = {
  time: 1767225600000,
  version: '2.31.0',
  blocks: [
    { id: 'h1xYz', type: 'header', data: { text: '総務部からのお知らせ', level: 2 } },
    {
      id: 'p1AbC',
      type: 'paragraph',
      data: {
        text: '来週の<b>全社会議</b>は<i>オンライン</i>で<u class="cdx-underline">開催</u>します。<s>会議室A</s>は使いません。',
      },
    },
    {
      id: 'p2',
      type: 'paragraph',
      data: {
        text: '詳細は<a href="https://intranet.example/wiki/meeting">社内 Wiki</a>をご覧ください。<br>質問は総務まで。',
      },
    },
    {
      id: 'l1',
      type: 'list',
      data: {
        style: 'ordered',
        meta: { start: 1, counterType: 'numeric' },
        items: [
          { content: '資料を読む', meta: {}, items: [{ content: '第1章', meta: {}, items: [] }] },
          { content: '質問を送る', meta: {}, items: [] },
        ],
      },
    },
    {
      id: 'im1',
      type: 'image',
      data: {
        file: { url: '/files/blog/0f8e3c1a-7b2d-4c55-9a0e-3d1f2b4c5d6e.png', size: 1234 },
        caption: '会場の<b>地図</b>',
        withBorder: false,
        withBackground: false,
        stretched: true,
      },
    },
  ],
};
