/**
 * A face without a picture, the same in the browser (web/src/components/Avatar.tsx) and in the
 * server's `/api/avatars/{id}` SVG: the initials on a colour from the name.
 */

/** A hue from the name, so each person keeps their colour on every screen (djb2 over the code points). */
export function hueOf(name: string): number {
  let h = 5381;
  for (const ch of name) h = ((h << 5) + h + ch.codePointAt(0)!) | 0;
  return Math.abs(h) % 360;
}

/** The initials: a Japanese name's first character (the family name's), else the first letters of two words. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  const first = [...words[0]!][0]!;
  if (/^[A-Za-z]/.test(first) && words.length > 1) return (first + [...words[1]!][0]!).toUpperCase();
  return first.toUpperCase();
}

/** The background: lightness 30 %, so white initials stay above 4.5:1 on every hue (yellow, the lightest, 4.8:1). */
export const faceColour = (name: string) => `hsl(${hueOf(name)} 55% 30%)`;
