import {
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type RefObject,
  type TextareaHTMLAttributes,
} from 'react';
import { mentionQueryBefore, mentionsWritten, type Mentioned } from './mention-text';
import { useMentionPicker, type MentionSearch } from './use-mention-picker';

/**
 * @-mentions in a plain-text box (a comment): typing @ and a name lists the people `search` allows;
 * the chosen one is written as 「@氏名 」 and kept, and `mentionIds(text)` gives those the text still
 * writes out when it is sent. Without `search` the box has no mentions.
 */
export function useTextareaMentions(
  box: RefObject<HTMLTextAreaElement | null>,
  value: string,
  setValue: (text: string) => void,
  search: MentionSearch | undefined,
  initial: Mentioned[] = [],
) {
  const [chosen, setChosen] = useState<Mentioned[]>(initial);
  const span = useRef<{ at: number; end: number } | null>(null);
  const caret = useRef<number | null>(null);
  const picker = useMentionPicker(search, (c) => {
    const s = span.current;
    if (!s) return;
    const written = `@${c.name} `;
    caret.current = s.at + written.length;
    setValue(value.slice(0, s.at) + written + value.slice(s.end));
    setChosen((list) => [...list.filter((m) => m.id !== c.id), { id: c.id, name: c.name }]);
  });

  useLayoutEffect(() => {
    const el = box.current;
    if (caret.current === null || !el) return;
    el.focus();
    el.setSelectionRange(caret.current, caret.current);
    caret.current = null;
  }, [value, box]);

  /** Reads the @-query at the caret (after each change or caret move). */
  const check = () => {
    const el = box.current;
    if (!search || !el || el.selectionStart !== el.selectionEnd) return picker.close();
    const q = mentionQueryBefore(el.value.slice(0, el.selectionStart));
    if (!q) return picker.close();
    span.current = { at: q.at, end: el.selectionStart };
    const r = el.getBoundingClientRect();
    picker.open(q.query, { left: r.left, top: r.top, bottom: r.bottom });
  };

  return {
    menu: picker.list,
    mentionIds: (text: string) => mentionsWritten(text, chosen),
    reset: () => setChosen([]),
    /** Spread on the textarea, before its own key handling (Enter picks while the list is open). */
    boxProps: (search
      ? {
          onKeyDownCapture: (e: KeyboardEvent<HTMLTextAreaElement>) => {
            if (picker.onKey({ key: e.key, isComposing: e.nativeEvent.isComposing })) {
              e.preventDefault();
              e.stopPropagation();
            }
          },
          onKeyUp: (e: KeyboardEvent<HTMLTextAreaElement>) => {
            if (['ArrowLeft', 'ArrowRight', 'Home', 'End'].includes(e.key)) check();
          },
          onInput: check,
          onClick: check,
          onBlur: () => picker.close(),
          'aria-controls': picker.isOpen ? picker.listId : undefined,
          'aria-activedescendant': picker.activeId,
          'aria-autocomplete': 'list' as const,
        }
      : {}) as Partial<TextareaHTMLAttributes<HTMLTextAreaElement>>,
  };
}
