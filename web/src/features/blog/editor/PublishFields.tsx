import { useId } from 'react';
import { Checkbox, TextInput, ToggleSwitch } from '@primer/react';
import { Field } from '../../../components/Field';
import { ViewItem } from '../../../components/FormFields';
import { displayDate } from '../../../components/master-options';
import { CAPTION, FieldError, GROUP_LABEL } from './field-parts';
import type { PostEditor } from './use-post-editor';
import { READING_TEXT } from '../reading';
import { useCatalog } from '../../../app/i18n';
import styles from './editor.module.css';

function DateInput({
  label,
  value,
  onChange,
  error,
  testId,
}: {
  label: string;
  value: string;
  onChange(v: string): void;
  error?: string;
  testId?: string;
}) {
  return (
    <Field label={label} error={error}>
      {(c) => (
        <TextInput
          {...c}
          block
          type="date"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          data-testid={testId}
        />
      )}
    </Field>
  );
}

/** A labelled on/off switch (Primer's ToggleSwitch, its 「オン」/「オフ」 words in Japanese). */
function Switch({
  label,
  on,
  onChange,
  testId,
  onText,
  offText,
}: {
  label: string;
  on: boolean;
  onChange(on: boolean): void;
  testId: string;
  onText: string;
  offText: string;
}) {
  const id = useId();
  return (
    <div className={styles.switchRow}>
      <span id={id} className={GROUP_LABEL}>
        {label}
      </span>
      <ToggleSwitch
        aria-labelledby={id}
        checked={on}
        onClick={() => onChange(!on)}
        size="small"
        statusLabelPosition="end"
        data-testid={testId}
        buttonLabelOn={onText}
        buttonLabelOff={offText}
      />
    </div>
  );
}

const range = (from: string, to: string) => [displayDate(from), displayDate(to)].filter(Boolean).join(' 〜 ');

/**
 * 速報 (pin with its window), 閲覧者の操作 (comment, like) and the publish window: inputs in edit
 * mode, values in view mode.
 */
export function PublishFields({ p }: { p: PostEditor }) {
  const { t, values: v, editing, fieldErrors: fe } = p;
  const onOff = { onText: t('blogEdit.on'), offText: t('blogEdit.off') };
  const reading = useCatalog(READING_TEXT);
  if (!editing) {
    const options = [
      v.allowComments ? t('blogEdit.optionComment') : null,
      v.allowLikes ? t('blogEdit.optionLike') : null,
    ]
      .filter(Boolean)
      .join('・');
    return (
      <dl className={styles.viewGrid}>
        <ViewItem
          label={t('blogEdit.pin')}
          value={v.isPin ? `${t('blogEdit.on')}（${range(v.pinStart, v.pinEnd)}）` : t('blogEdit.off')}
        />
        {v.isPin && (
          <ViewItem label={reading('required')} value={v.requireConfirmation ? t('blogEdit.on') : t('blogEdit.off')} />
        )}
        <ViewItem label={t('blogEdit.options')} value={options || t('rec.none')} />
        <ViewItem label={t('blogEdit.publishStart')} value={displayDate(v.publishStart)} />
        <ViewItem
          label={t('blogEdit.publishEnd')}
          value={v.hasPublishEnd ? displayDate(v.publishEnd) : t('blogEdit.publishNoEnd')}
        />
      </dl>
    );
  }
  return (
    <div className={styles.publish}>
      <fieldset className={styles.group}>
        <Switch label={t('blogEdit.pin')} on={v.isPin} onChange={p.setPin} testId="blog-pin-toggle" {...onOff} />
        <p className={CAPTION}>{t('blogEdit.pinCaption')}</p>
        {v.isPin && (
          <div className={styles.dates}>
            <DateInput
              label={t('blogEdit.pinStart')}
              value={v.pinStart}
              onChange={(x) => p.set('pinStart', x)}
              error={fe.pinStart}
              testId="blog-pin-start"
            />
            <DateInput
              label={t('blogEdit.pinEnd')}
              value={v.pinEnd}
              onChange={(x) => p.set('pinEnd', x)}
              error={fe.pinEnd}
              testId="blog-pin-end"
            />
          </div>
        )}
        {v.isPin && (
          <>
            <label className={styles.check}>
              <Checkbox
                checked={v.requireConfirmation}
                onChange={(e) => p.set('requireConfirmation', e.target.checked)}
                data-testid="blog-require-confirmation"
              />
              {reading('editorOption')}
            </label>
            <p className={CAPTION}>{reading('editorCaption')}</p>
            <FieldError text={fe.requireConfirmation} />
          </>
        )}
        <FieldError text={fe.isPin} />
      </fieldset>
      <fieldset className={styles.group}>
        <legend className={GROUP_LABEL}>{t('blogEdit.options')}</legend>
        <div className={styles.checks}>
          <label className={styles.check}>
            <Checkbox checked={v.allowComments} onChange={(e) => p.set('allowComments', e.target.checked)} />
            {t('blogEdit.optionComment')}
          </label>
          <label className={styles.check}>
            <Checkbox checked={v.allowLikes} onChange={(e) => p.set('allowLikes', e.target.checked)} />
            {t('blogEdit.optionLike')}
          </label>
        </div>
        <FieldError text={fe.allowComments} />
      </fieldset>
      <fieldset className={styles.group}>
        <div className={styles.dates}>
          <DateInput
            label={t('blogEdit.publishStart')}
            value={v.publishStart}
            onChange={(x) => p.set('publishStart', x)}
            error={fe.publishStart}
            testId="blog-publish-start"
          />
          <div className={styles.endColumn}>
            <Switch
              label={t('blogEdit.hasPublishEnd')}
              on={v.hasPublishEnd}
              onChange={(on) => p.set('hasPublishEnd', on)}
              testId="blog-publish-end-toggle"
              {...onOff}
            />
            {v.hasPublishEnd && (
              <DateInput
                label={t('blogEdit.publishEnd')}
                value={v.publishEnd}
                onChange={(x) => p.set('publishEnd', x)}
                error={fe.publishEnd}
                testId="blog-publish-end"
              />
            )}
          </div>
        </div>
      </fieldset>
    </div>
  );
}
