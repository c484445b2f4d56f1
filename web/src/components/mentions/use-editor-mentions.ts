import { useEffect, useRef, type RefObject } from 'react';
import { mentionQueryBefore } from './mention-text';
import { useMentionPicker, type MentionCandidate, type MentionSearch } from './use-mention-picker';

/**
 * @-mentions in a contenteditable editor (Editor.js): typing @ and a name (kana while the IME is
 * still composing too) lists the people `search` allows, under the caret; the chosen one becomes a
 * link to their profile, `<a href="/profile/{id}">@氏名</a>`, which the server reads as the mention.
 * `edited` is told after the link is put in.
 */
export function useEditorMentions(
  holder: RefObject<HTMLElement | null>,
  search: MentionSearch | undefined,
  edited: () => void,
) {
  /** Where the @ and what follows it are, in the text node the caret is in. */
  const found = useRef<{ node: Text; at: number; end: number } | null>(null);
  const picker = useMentionPicker(search, (c: MentionCandidate) => {
    const t = found.current;
    if (!t || !t.node.isConnected) return;
    const range = document.createRange();
    range.setStart(t.node, t.at);
    range.setEnd(t.node, Math.min(t.end, t.node.length));
    range.deleteContents();
    const link = document.createElement('a');
    link.setAttribute('href', `/profile/${c.id}`);
    link.textContent = `@${c.name}`;
    const after = document.createTextNode('\u00a0');
    range.insertNode(after);
    range.insertNode(link);
    window.getSelection()?.collapse(after, 1);
    edited();
  });

  useEffect(() => {
    const el = holder.current;
    if (!el || !search) return;
    const check = () => {
      const sel = window.getSelection();
      const node = sel?.anchorNode;
      if (!sel || !sel.isCollapsed || !node || node.nodeType !== Node.TEXT_NODE || !el.contains(node))
        return picker.close();
      if (node.parentElement?.closest('a')) return picker.close();
      const q = mentionQueryBefore((node.textContent ?? '').slice(0, sel.anchorOffset));
      if (!q) return picker.close();
      found.current = { node: node as Text, at: q.at, end: sel.anchorOffset };
      const mark = document.createRange();
      mark.setStart(node, q.at);
      mark.setEnd(node, q.at + 1);
      const r = mark.getBoundingClientRect();
      picker.open(q.query, { left: r.left, top: r.top, bottom: r.bottom });
    };
    // Before Editor.js's own keys (Enter would make a new block): the list takes them while open.
    const key = (e: KeyboardEvent) => {
      if (picker.onKey(e)) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    const move = (e: KeyboardEvent) => {
      if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) check();
    };
    const leave = () => picker.close();
    const listeners: [string, (e: Event) => void, boolean][] = [
      ['input', check, false],
      ['compositionend', check, false],
      ['click', check, false],
      ['keyup', move as (e: Event) => void, false],
      ['keydown', key as (e: Event) => void, true],
      ['focusout', leave, false],
    ];
    for (const [type, f, capture] of listeners) el.addEventListener(type, f, capture);
    return () => {
      for (const [type, f, capture] of listeners) el.removeEventListener(type, f, capture);
    };
    // picker's methods read its latest state; the listeners are set once per editor.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [holder, search]);

  return picker.list;
}
