import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { profilePath } from '../../app/links';
import { useNarrow } from '../../app/use-narrow';
import styles from './rich-text-view.module.css';

/** A mention's link as the server writes it (lib/rich-text/mention.ts). */
const MENTION = /^\/profile\/(\d+)$/;

/**
 * Rich text as readers see it. `html` is the server's rendering of an Editor.js document, sanitized
 * there with an allow-list; nothing else is ever given here. A mention (@氏名) opens the person's
 * profile in the app, in the layout in use.
 */
export function RichTextView({ html, className, testId }: { html: string; className?: string; testId?: string }) {
  const navigate = useNavigate();
  const narrow = useNarrow();
  const follow = (e: MouseEvent<HTMLDivElement>) => {
    const link = (e.target as Element).closest?.('a');
    const id = MENTION.exec(link?.getAttribute('href') ?? '')?.[1];
    if (!id || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(profilePath(Number(id), narrow));
  };
  return (
    <div
      className={className ? `${styles.view} ${className}` : styles.view}
      data-testid={testId}
      onClick={follow}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
