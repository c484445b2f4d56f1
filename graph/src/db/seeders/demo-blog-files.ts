import sharp from 'sharp';

/**
 * The demo blog's attachments, drawn here rather than committed as binaries: a few pictures (SVG
 * shapes rendered by sharp, no fonts needed) and a one-page PDF.
 */
const picture = (svg: string) => sharp(Buffer.from(svg)).png().toBuffer();

export const DEMO_FILES = {
  /** The kick-off: a stage with a screen and rows of seats. */
  kickoff: () =>
    picture(`<svg xmlns="http://www.w3.org/2000/svg" width="960" height="540">
      <rect width="960" height="540" fill="#1f2a44"/><rect x="230" y="60" width="500" height="240" rx="8" fill="#dce6f8"/>
      <rect x="270" y="100" width="420" height="30" fill="#1f6feb"/><rect x="270" y="150" width="300" height="18" fill="#8aa4d6"/>
      <rect x="270" y="180" width="340" height="18" fill="#8aa4d6"/>
      ${Array.from({ length: 24 }, (_, i) => `<circle cx="${120 + (i % 12) * 65}" cy="${380 + Math.floor(i / 12) * 70}" r="22" fill="#f2a541"/>`).join('')}
    </svg>`),
  /** Autumn leaves for the photo club. */
  autumn: () =>
    picture(`<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">
      <rect width="800" height="600" fill="#fbeee0"/>
      ${Array.from({ length: 40 }, (_, i) => `<ellipse cx="${(i * 137) % 800}" cy="${(i * 89) % 600}" rx="28" ry="16" transform="rotate(${(i * 47) % 180} ${(i * 137) % 800} ${(i * 89) % 600})" fill="${['#c0392b', '#e67e22', '#f1c40f', '#a0522d'][i % 4]}"/>`).join('')}
    </svg>`),
  /** A futsal pitch. */
  pitch: () =>
    picture(`<svg xmlns="http://www.w3.org/2000/svg" width="800" height="500">
      <rect width="800" height="500" fill="#2e8b57"/><rect x="40" y="40" width="720" height="420" fill="none" stroke="#fff" stroke-width="6"/>
      <line x1="400" y1="40" x2="400" y2="460" stroke="#fff" stroke-width="6"/><circle cx="400" cy="250" r="70" fill="none" stroke="#fff" stroke-width="6"/>
      <circle cx="430" cy="280" r="14" fill="#fff"/>
    </svg>`),
  /** A one-page PDF (the fire drill's evacuation plan). */
  drillPdf: (): Buffer => {
    const text =
      'BT /F1 18 Tf 60 740 Td (Evacuation plan - fire drill) Tj 0 -30 Td /F1 12 Tf (Assembly point: front car park) Tj ET';
    const objects = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
      `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ];
    let body = '%PDF-1.4\n';
    const offsets: number[] = [];
    objects.forEach((o, i) => {
      offsets.push(body.length);
      body += `${i + 1} 0 obj\n${o}\nendobj\n`;
    });
    const xref = body.length;
    body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
    body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
    return Buffer.from(body, 'latin1');
  },
} as const;

export type DemoFile = keyof typeof DEMO_FILES;

/** The display name each demo file is attached under. */
export const DEMO_FILE_NAMES: Record<DemoFile, string> = {
  kickoff: 'キックオフ会場.png',
  autumn: '紅葉.png',
  pitch: 'フットサルコート.png',
  drillPdf: '避難経路図.pdf',
};
