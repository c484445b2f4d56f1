import { useRef, type CompositionEvent, type KeyboardEvent } from 'react';

/**
 * One rule for every comment and reply box: Enter sends, Shift+Enter breaks the line, and the Enter
 * that confirms a Japanese IME conversion does neither.
 */

/** The parts of a keydown that decide what Enter does. */
export interface EnterKey {
  key: string;
  shiftKey: boolean;
  /** KeyboardEvent.isComposing: true while an IME conversion is open (Chrome, Firefox, Edge). */
  isComposing: boolean;
  /** 229: the key went to the IME (Safari sends the confirming Enter so, after compositionend). */
  keyCode: number;
}

/**
 * 'send' for a plain Enter; 'newline' for Shift+Enter (the textarea's own line break); 'ignore' for
 * every other key and for an Enter that belongs to the IME — composing, keyCode 229, or arriving
 * right after compositionend (`justComposed`: Safari ends the composition before the confirming
 * keydown, in the same turn of the event loop).
 */
export function enterAction(e: EnterKey, justComposed: boolean): 'send' | 'newline' | 'ignore' {
  if (e.key !== 'Enter') return 'ignore';
  if (e.isComposing || e.keyCode === 229 || justComposed) return 'ignore';
  return e.shiftKey ? 'newline' : 'send';
}

/** The textarea handlers of a box that sends on Enter. */
export function useEnterToSend(send: () => void) {
  // Set by compositionend until the event loop turns: the keydown of the same confirming Enter (Safari's order) must not send.
  const justComposed = useRef(false);
  return {
    onCompositionEnd: (_e: CompositionEvent<HTMLTextAreaElement>) => {
      justComposed.current = true;
      window.setTimeout(() => (justComposed.current = false), 0);
    },
    onKeyDown: (e: KeyboardEvent<HTMLTextAreaElement>) => {
      const key = {
        key: e.key,
        shiftKey: e.shiftKey,
        isComposing: e.nativeEvent.isComposing,
        keyCode: e.nativeEvent.keyCode,
      };
      if (enterAction(key, justComposed.current) !== 'send') return;
      e.preventDefault();
      send();
    },
  };
}
