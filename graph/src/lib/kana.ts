/**
 * Kana to Hepburn romaji, for finding people by how their name sounds: the master data keeps names
 * in kanji and login IDs and mail addresses in romaji, so 「なかむら」 or 「ナカムラ」 finds
 * `makoto.nakamura`. Not a transliteration for display: long vowels (ー) are dropped, and a
 * character that is not kana passes through unchanged.
 */
const SINGLE: Record<string, string> = Object.fromEntries(
  (
    'あa いi うu えe おo かka きki くku けke こko さsa しshi すsu せse そso たta ちchi つtsu てte とto ' +
    'なna にni ぬnu ねne のno はha ひhi ふfu へhe ほho まma みmi むmu めme もmo やya ゆyu よyo ' +
    'らra りri るru れre ろro わwa ゐi ゑe をo んn がga ぎgi ぐgu げge ごgo ざza じji ずzu ぜze ぞzo ' +
    'だda ぢji づzu でde どdo ばba びbi ぶbu べbe ぼbo ぱpa ぴpi ぷpu ぺpe ぽpo ゔvu ' +
    'ぁa ぃi ぅu ぇe ぉo ゃya ゅyu ょyo ゎwa'
  )
    .split(' ')
    .map((pair) => [pair[0]!, pair.slice(1)]),
);

/** Syllables written with a small ゃゅょ (or ぇ, ぃ) after them: the consonant they keep. */
const GLIDE_ONSET: Record<string, string> = {
  き: 'ky',
  ぎ: 'gy',
  し: 'sh',
  じ: 'j',
  ち: 'ch',
  ぢ: 'j',
  に: 'ny',
  ひ: 'hy',
  び: 'by',
  ぴ: 'py',
  み: 'my',
  り: 'ry',
};
const GLIDE_VOWEL: Record<string, string> = { ゃ: 'a', ゅ: 'u', ょ: 'o', ぇ: 'e' };
const VOICELESS_GLIDE: Record<string, string> = { ふ: 'f', て: 't', で: 'd', う: 'w', ゔ: 'v', つ: 'ts' };
const SMALL_VOWEL: Record<string, string> = { ぁ: 'a', ぃ: 'i', ぅ: 'u', ぇ: 'e', ぉ: 'o' };

/** Katakana folded to hiragana (ァ–ヶ are ぁ–ゖ shifted by 0x60). */
function toHiragana(text: string): string {
  return text.replace(/[\u30a1-\u30f6]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x60));
}

/** Whether the text holds any kana. */
export const hasKana = (text: string): boolean => /[\u3041-\u3096\u30a1-\u30fa]/.test(text);

export function kanaToRomaji(text: string): string {
  const chars = [...toHiragana(text)];
  let out = '';
  let doubled = false;
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i]!;
    const next = chars[i + 1] ?? '';
    let syllable: string;
    if (c === 'っ') {
      doubled = true;
      continue;
    }
    if (c === 'ー') continue;
    if (GLIDE_ONSET[c] && GLIDE_VOWEL[next]) {
      syllable = GLIDE_ONSET[c] + GLIDE_VOWEL[next];
      i++;
    } else if (VOICELESS_GLIDE[c] && SMALL_VOWEL[next]) {
      syllable = VOICELESS_GLIDE[c] + SMALL_VOWEL[next];
      i++;
    } else syllable = SINGLE[c] ?? c;
    if (doubled && /^[a-z]/.test(syllable)) syllable = (syllable.startsWith('ch') ? 't' : syllable[0]) + syllable;
    doubled = false;
    out += syllable;
  }
  return out;
}
