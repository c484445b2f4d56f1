import type { API, InlineTool, InlineToolConstructorOptions, SanitizerConfig } from '@editorjs/editorjs';

/**
 * Two small inline tools the Editor.js packages do not have in the form the server stores
 * (graph/src/lib/rich-text keeps `<b> <i> <u> <s> <a href> <br>` only): strike, which wraps in
 * `<s>` (the browser's execCommand('strikeThrough') writes `<strike>`, which the server drops), and
 * clear formatting, which unwraps every mark in the selection.
 */

const STRIKE_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" fill="none" viewBox="0 0 24 24"><path stroke="currentColor" stroke-linecap="round" stroke-width="2" d="M6 12h12"/><path stroke="currentColor" stroke-linecap="round" stroke-linejoin="round" stroke-width="2" d="M15.5 8.2c-.4-1.3-1.7-2.2-3.5-2.2-2 0-3.5 1-3.5 2.6 0 .9.5 1.6 1.4 2.1M9 15.6c.4 1.4 1.8 2.4 3.7 2.4 2.1 0 3.6-1.1 3.6-2.7 0-.6-.2-1.1-.5-1.5"/></svg>';
const CLEAR_ICON =
  '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" fill="none" viewBox="0 0 24 24"><path stroke="currentColor" stroke-linecap="round" stroke-linejoin="round" stroke-width="2" d="M8 7h9M12.5 7 10 17M5 5l14 14"/></svg>';

function toolButton(api: API, icon: string): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.classList.add(api.styles.inlineToolButton);
  button.innerHTML = icon;
  return button;
}

/** Moves an element's children up in its place and drops the element. */
function unwrap(el: Element) {
  el.replaceWith(...Array.from(el.childNodes));
}

/** Strike: wraps the selection in `<s>`, or takes the `<s>` around it away. */
export class StrikeTool implements InlineTool {
  static isInline = true;
  static title = 'Strikethrough';
  static get sanitize(): SanitizerConfig {
    return { s: {} };
  }

  private readonly api: API;
  private button: HTMLButtonElement | null = null;

  constructor({ api }: InlineToolConstructorOptions) {
    this.api = api;
  }

  render(): HTMLElement {
    this.button = toolButton(this.api, STRIKE_ICON);
    return this.button;
  }

  surround(range: Range | null): void {
    if (!range) return;
    const around = this.api.selection.findParentTag('S');
    if (around) {
      unwrap(around);
      return;
    }
    const s = document.createElement('s');
    s.appendChild(range.extractContents());
    range.insertNode(s);
    this.api.selection.expandToTag(s);
  }

  checkState(): boolean {
    const on = !!this.api.selection.findParentTag('S');
    this.button?.classList.toggle(this.api.styles.inlineToolButtonActive, on);
    return on;
  }
}

/** The marks clear formatting takes off (ours, and what a paste may have brought in). */
const MARK = /^(B|I|U|S|A|STRONG|EM|STRIKE|DEL|INS|SPAN|MARK|CODE|FONT|SUB|SUP)$/;

function unwrapMarks(root: ParentNode) {
  for (const el of Array.from(root.querySelectorAll('*')).reverse()) if (MARK.test(el.nodeName)) unwrap(el);
}

/**
 * Removes bold, italic, underline, strike and links from the selected text. A selection inside a
 * mark splits it: the text before and after keeps the mark, the selection loses it.
 */
export function clearMarks(range: Range, block: Node): void {
  let outer: Element | null = null;
  for (let n: Node | null = range.commonAncestorContainer; n && n !== block; n = n.parentNode) {
    if (n instanceof Element && MARK.test(n.nodeName)) outer = n;
  }
  const middle = range.extractContents();
  unwrapMarks(middle);
  const first = middle.firstChild;
  const last = middle.lastChild;
  if (!outer) {
    range.insertNode(middle);
  } else {
    // The part of the mark after the cut goes into a copy of the mark placed after the selection.
    const tail = document.createRange();
    tail.setStart(range.startContainer, range.startOffset);
    tail.setEnd(outer, outer.childNodes.length);
    const after = outer.cloneNode(false) as Element;
    after.appendChild(tail.extractContents());
    outer.after(middle, after);
    if (!after.textContent) after.remove();
    if (!outer.textContent) outer.remove();
  }
  if (first && last) {
    const sel = window.getSelection();
    const chosen = document.createRange();
    chosen.setStartBefore(first);
    chosen.setEndAfter(last);
    sel?.removeAllRanges();
    sel?.addRange(chosen);
  }
}

/** Clear formatting: unwraps `<b> <i> <u> <s> <a>` in the selection. */
export class ClearFormatTool implements InlineTool {
  static isInline = true;
  static title = 'Clear formatting';

  private readonly api: API;

  constructor({ api }: InlineToolConstructorOptions) {
    this.api = api;
  }

  render(): HTMLElement {
    return toolButton(this.api, CLEAR_ICON);
  }

  surround(range: Range | null): void {
    if (!range || range.collapsed) return;
    const start = range.startContainer;
    const block = (start instanceof Element ? start : start.parentElement)?.closest('[contenteditable="true"]');
    if (block) clearMarks(range, block);
  }

  checkState(): boolean {
    return false;
  }
}
