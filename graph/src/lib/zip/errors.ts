/** A zip that would inflate past its budget, or holds more entries than allowed (a zip bomb, or too big to read). */
export class ZipTooLarge extends Error {
  override readonly name = 'ZipTooLarge';
}

/** A zip entry whose data does not inflate (a broken file). */
export class ZipBroken extends Error {
  override readonly name = 'ZipBroken';
}
