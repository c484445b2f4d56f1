/** Anything that is not a readable .xlsx (the reader's only failure; XlsxTooLarge past a bound). */
export class XlsxUnreadable extends Error {
  override readonly name = 'XlsxUnreadable';
}

/** A part inflates past the budget (a zip bomb, or a workbook too big to import). */
export class XlsxTooLarge extends XlsxUnreadable {}

export const broken = (what: string) => new XlsxUnreadable(`not a readable .xlsx: ${what}`);
export const tooLarge = (name: string, max: number) =>
  new XlsxTooLarge(`not a readable .xlsx: ${name} inflates past ${max} bytes`);
export const tooLong = (what: string, max: number) =>
  new XlsxTooLarge(`not a readable .xlsx: ${what} longer than ${max} characters`);
