import styles from './rich-text-view.module.css';

/**
 * Rich text as readers see it. `html` is the server's rendering of an Editor.js document, sanitized
 * there with an allow-list; nothing else is ever given here.
 */
export function RichTextView({ html, className, testId }: { html: string; className?: string; testId?: string }) {
  return (
    <div
      className={className ? `${styles.view} ${className}` : styles.view}
      data-testid={testId}
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
