import { useEffect, useRef, useState, type ReactNode } from 'react';
import { TextInput } from '@primer/react';
import type { Suggestion } from './SuggestionList';
import { useSuggestions, type SuggestionWords } from './use-suggestions';

/**
 * A field that picks one of many (a tag, a person): typing part of it lists the matches (↑ ↓
 * Enter, or a click); emptying the field picks none. `value` is the picked one's id ('' for none);
 * `nameOf` gives the name of an id that came from elsewhere (the address, a reload).
 */
export function SuggestField<T extends { id: number }>({
  value,
  onChange,
  search,
  toItem,
  nameOf,
  label,
  name,
  placeholder,
  icon,
  words,
  className,
  testId,
}: {
  value: string;
  onChange(id: string): void;
  search(query: string): Promise<T[]>;
  toItem(t: T): Suggestion;
  nameOf(id: number): Promise<string | null>;
  label: ReactNode;
  /** The field's accessible name. */
  name: string;
  placeholder: string;
  icon?: React.ElementType;
  words: SuggestionWords;
  className?: string;
  testId: string;
}) {
  const [text, setText] = useState('');
  /** The pick was let go by typing (the text stays), not from outside (クリア: the text goes). */
  const typing = useRef(false);
  const latest = useRef(nameOf);
  latest.current = nameOf;
  useEffect(() => {
    if (!value) {
      if (!typing.current) setText('');
      typing.current = false;
      return;
    }
    let live = true;
    latest
      .current(Number(value))
      .then((name) => live && name !== null && setText(name))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [value]);
  const list = useSuggestions(
    search,
    toItem,
    (picked) => {
      setText(toItem(picked).label);
      onChange(String(picked.id));
    },
    words,
  );
  const offer = (el: HTMLInputElement, typed: string) => {
    const r = el.getBoundingClientRect();
    list.open(typed.trim(), { left: r.left, top: r.top, bottom: r.bottom, width: r.width });
  };
  return (
    <label className={className}>
      {label}
      <TextInput
        leadingVisual={icon}
        value={text}
        block
        placeholder={placeholder}
        role="combobox"
        aria-label={name}
        aria-expanded={list.isOpen}
        aria-controls={list.isOpen ? list.listId : undefined}
        aria-activedescendant={list.activeId}
        aria-autocomplete="list"
        autoComplete="off"
        data-testid={testId}
        onChange={(e) => {
          setText(e.target.value);
          // What is typed is not the picked one until one is picked again.
          if (value) {
            typing.current = true;
            onChange('');
          }
          offer(e.target, e.target.value);
        }}
        onFocus={(e) => offer(e.target, text)}
        onBlur={() => list.close()}
        onKeyDown={(e) => {
          if (list.onKey({ key: e.key, isComposing: e.nativeEvent.isComposing })) e.preventDefault();
        }}
      />
      {list.list}
    </label>
  );
}
