import { useEffect, useImperativeHandle, useRef, useState, type Ref } from 'react';
import { Spinner } from '@primer/react';
import type { ImageUploader } from './editor-tools';
import styles from './rich-text.module.css';
import { useEditorMentions } from '../mentions/use-editor-mentions';
import type { MentionSearch } from '../mentions/use-mention-picker';

/** An Editor.js document as the server stores it. */
export interface RichTextDocument {
  time?: number;
  version?: string;
  blocks: unknown[];
}

export interface RichTextEditorHandle {
  /** The document as the editor holds it now (Editor.js `save()`). */
  save(): Promise<RichTextDocument>;
  /** Puts `doc` in the editor in place of what it holds (an edit conflict's chosen body). */
  replace(doc: RichTextDocument): Promise<void>;
}

/**
 * Rich text in Editor.js (a post's body, a profile's about me). The editor and its tools are fetched when this mounts (their own
 * chunk: the first screen never carries them); `initial` is read once, the edits stay in the editor
 * until `save()`. `onChange` tells the form the body was edited (for the leave guard).
 */
export function RichTextEditor({
  ref,
  initial,
  japanese,
  placeholder,
  label,
  loadingText,
  failedText,
  invalid,
  describedBy,
  images,
  testId = 'rich-text-editor',
  mentions,
  onChange,
}: {
  ref: Ref<RichTextEditorHandle>;
  initial: RichTextDocument | null;
  japanese: boolean;
  placeholder: string;
  label: string;
  loadingText: string;
  failedText: string;
  invalid?: boolean;
  describedBy?: string;
  /** Pictures may be added, uploaded here (the blog); without it the editor has no image tool. */
  images?: ImageUploader;
  testId?: string;
  /** Whom @ lists (components/mentions); without it the editor has no mentions. */
  mentions?: MentionSearch;
  onChange(): void;
}) {
  const holder = useRef<HTMLDivElement>(null);
  const editor = useRef<import('./editor-tools').EditorJS | null>(null);
  const [ready, setReady] = useState(false);
  const [failed, setFailed] = useState(false);
  const latest = useRef({ initial, onChange, japanese, placeholder, images });
  latest.current = { initial, onChange, japanese, placeholder, images };
  /** A document put in by replace() before the editor was there: it, not `initial`, is what the editor starts with. */
  const replaced = useRef<RichTextDocument | null>(null);
  const mentionMenu = useEditorMentions(holder, mentions, () => latest.current.onChange());

  useEffect(() => {
    let live = true;
    let instance: import('./editor-tools').EditorJS | null = null;
    import('./editor-tools')
      .then(({ createEditor }) => {
        if (!live || !holder.current) return;
        const start = latest.current;
        instance = createEditor({
          holder: holder.current,
          data: (replaced.current ?? start.initial ?? undefined) as import('./editor-tools').OutputData | undefined,
          placeholder: start.placeholder,
          japanese: start.japanese,
          images: start.images,
          onChange: () => latest.current.onChange(),
          onReady: () => live && setReady(true),
        });
        editor.current = instance;
      })
      .catch(() => live && setFailed(true));
    return () => {
      live = false;
      editor.current = null;
      // destroy() exists once the editor is ready; an editor still starting is dropped with its holder.
      void instance?.isReady.then(() => instance?.destroy()).catch(() => undefined);
    };
    // One editor per mount: a language switch keeps the edits (Editor.js's own words follow on the next page load).
  }, []);

  useImperativeHandle(
    ref,
    () => ({
      async save() {
        if (!editor.current) return replaced.current ?? latest.current.initial ?? { blocks: [] };
        const out = await editor.current.save();
        return { time: out.time, version: out.version, blocks: out.blocks };
      },
      async replace(doc) {
        replaced.current = doc;
        if (!editor.current) return latest.current.onChange();
        await editor.current.isReady;
        await editor.current.render(doc as import('./editor-tools').OutputData);
        latest.current.onChange();
      },
    }),
    [],
  );

  return (
    <div className={styles.editorFrame} data-invalid={invalid || undefined} data-testid={testId}>
      {!ready && !failed && (
        <div className={styles.editorLoading}>
          <Spinner size="small" srText={null} />
          <span>{loadingText}</span>
        </div>
      )}
      {failed && <p className={styles.editorFailed}>{failedText}</p>}
      <div
        ref={holder}
        role="group"
        aria-label={label}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        className={styles.editorHolder}
      />
      {mentionMenu}
    </div>
  );
}
