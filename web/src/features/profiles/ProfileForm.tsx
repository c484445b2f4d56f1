import { useRef, useState } from 'react';
import { Button, FormControl, IconButton, Select, Textarea, TextInput } from '@primer/react';
import { PlusIcon, TrashIcon } from '@primer/octicons-react';
import { useCatalog, useI18n } from '../../app/i18n';
import { useLeaveGuard } from '../../app/leave-guard';
import {
  RichTextEditor,
  type RichTextDocument,
  type RichTextEditorHandle,
} from '../../components/rich-text/RichTextEditor';
import type { ProfileInput, ProfileVisibility } from '../../gql/graphql';
import { AvatarField, PhotosField } from './PictureFields';
import type { Picture } from './pictures';
import { PROFILE } from './profiles.i18n';
import styles from './profiles.module.css';

const LISTS = ['skills', 'languages', 'workExperience', 'education'] as const;
type ListKey = (typeof LISTS)[number];
const MAX_ENTRIES = 10;
/** Skills and languages show at least two rows to fill in (the spec); the others one. */
const MIN_ROWS: Record<ListKey, number> = { skills: 2, languages: 2, workExperience: 1, education: 1 };
const VISIBILITIES: ProfileVisibility[] = ['EVERYONE', 'DEPARTMENT', 'PRIVATE'];

export interface ProfileFormValues {
  title: string;
  address: string;
  addressVisibility: ProfileVisibility;
  phone: string;
  phoneVisibility: ProfileVisibility;
  skills: string[];
  languages: string[];
  workExperience: string[];
  education: string[];
  aboutMe: RichTextDocument | null;
  hobbies: string;
  talents: string;
  avatar: Picture | null;
  hobbyImages: Picture[];
  talentImages: Picture[];
  headerImages: Picture[];
}

export const EMPTY_FORM: ProfileFormValues = {
  title: '',
  address: '',
  addressVisibility: 'DEPARTMENT',
  phone: '',
  phoneVisibility: 'EVERYONE',
  skills: [],
  languages: [],
  workExperience: [],
  education: [],
  aboutMe: null,
  hobbies: '',
  talents: '',
  avatar: null,
  hobbyImages: [],
  talentImages: [],
  headerImages: [],
};

const padded = (list: string[], key: ListKey) => [
  ...list,
  ...Array<string>(Math.max(0, MIN_ROWS[key] - list.length)).fill(''),
];

/**
 * Edit mode of one's own profile: inputs for the owner's fields (name, department and email come
 * from the master data and are not edited here), who sees the address and the phone, lists of at
 * most 10 entries (追加 is disabled at 10; blank rows are dropped on save), about me in the rich-text
 * editor. Leaving with changes asks first. `fieldErrors` are the server's, by field.
 */
export function ProfileForm({
  name,
  initial,
  saving,
  fieldErrors,
  onSave,
  onCancel,
}: {
  name: string;
  initial: ProfileFormValues;
  saving: boolean;
  fieldErrors: Record<string, string>;
  onSave(input: Omit<ProfileInput, 'version'>): void;
  onCancel(): void;
}) {
  const tp = useCatalog(PROFILE);
  const { locale } = useI18n();
  const [v, setV] = useState(
    () => ({ ...initial, ...Object.fromEntries(LISTS.map((k) => [k, padded(initial[k], k)])) }) as ProfileFormValues,
  );
  const [dirty, setDirty] = useState(false);
  const about = useRef<RichTextEditorHandle>(null);
  useLeaveGuard(dirty && !saving);
  const set = <K extends keyof ProfileFormValues>(k: K, value: ProfileFormValues[K]) => {
    setV((old) => ({ ...old, [k]: value }));
    setDirty(true);
  };
  const setRow = (k: ListKey, i: number, value: string) =>
    set(
      k,
      v[k].map((x, j) => (j === i ? value : x)),
    );

  const save = async () => {
    const aboutMe = about.current ? await about.current.save() : v.aboutMe;
    onSave({
      title: v.title,
      address: v.address,
      addressVisibility: v.addressVisibility,
      phone: v.phone,
      phoneVisibility: v.phoneVisibility,
      // Blank rows are dropped (the server drops them too).
      skills: v.skills.filter((s) => s.trim()),
      languages: v.languages.filter((s) => s.trim()),
      workExperience: v.workExperience.filter((s) => s.trim()),
      education: v.education.filter((s) => s.trim()),
      aboutMe: { ...(aboutMe ?? { blocks: [] }) },
      hobbies: v.hobbies,
      talents: v.talents,
      avatar: v.avatar?.url ?? null,
      hobbyImages: v.hobbyImages.map((p) => p.url),
      talentImages: v.talentImages.map((p) => p.url),
      headerImages: v.headerImages.map((p) => p.url),
    });
  };

  const text = (k: 'title' | 'hobbies' | 'talents', multiline = false) => (
    <FormControl>
      <FormControl.Label>{tp(k)}</FormControl.Label>
      {multiline ? (
        <Textarea
          block
          rows={2}
          value={v[k]}
          onChange={(e) => set(k, e.target.value)}
          validationStatus={fieldErrors[k] ? 'error' : undefined}
        />
      ) : (
        <TextInput
          block
          value={v[k]}
          onChange={(e) => set(k, e.target.value)}
          validationStatus={fieldErrors[k] ? 'error' : undefined}
        />
      )}
      {fieldErrors[k] && <FormControl.Validation variant="error">{fieldErrors[k]}</FormControl.Validation>}
    </FormControl>
  );

  const personal = (k: 'address' | 'phone') => {
    const vis = k === 'address' ? 'addressVisibility' : 'phoneVisibility';
    return (
      <div className={styles.personal}>
        <FormControl>
          <FormControl.Label>{tp(k)}</FormControl.Label>
          <TextInput
            block
            type={k === 'phone' ? 'tel' : 'text'}
            value={v[k]}
            onChange={(e) => set(k, e.target.value)}
            validationStatus={fieldErrors[k] ? 'error' : undefined}
            data-testid={`profile-input-${k}`}
          />
          {fieldErrors[k] && <FormControl.Validation variant="error">{fieldErrors[k]}</FormControl.Validation>}
        </FormControl>
        <FormControl>
          <FormControl.Label>{tp('visibilityOf', { field: tp(k) })}</FormControl.Label>
          <Select
            value={v[vis]}
            onChange={(e) => set(vis, e.target.value as ProfileVisibility)}
            data-testid={`profile-visibility-${k}`}
          >
            {VISIBILITIES.map((x) => (
              <Select.Option key={x} value={x}>
                {tp(`visibility.${x}`)}
              </Select.Option>
            ))}
          </Select>
        </FormControl>
      </div>
    );
  };

  return (
    <form
      className={styles.form}
      data-testid="profile-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <AvatarField name={name} value={v.avatar} onChange={(p) => set('avatar', p)} />
      {text('title')}
      {personal('address')}
      {personal('phone')}
      {LISTS.map((k) => (
        <fieldset key={k} className={styles.listField} data-testid={`profile-list-${k}`}>
          <legend>{tp(k)}</legend>
          {v[k].map((row, i) => (
            <div key={i} className={styles.listRow}>
              <TextInput
                block
                aria-label={tp('rowLabel', { field: tp(k), n: i + 1 })}
                value={row}
                onChange={(e) => setRow(k, i, e.target.value)}
              />
              <IconButton
                icon={TrashIcon}
                aria-label={tp('removeRow', { field: tp(k), n: i + 1 })}
                variant="invisible"
                onClick={() =>
                  set(
                    k,
                    v[k].filter((_, j) => j !== i),
                  )
                }
              />
            </div>
          ))}
          <Button
            size="small"
            leadingVisual={PlusIcon}
            disabled={v[k].length >= MAX_ENTRIES}
            onClick={() => set(k, [...v[k], ''])}
            aria-describedby={v[k].length >= MAX_ENTRIES ? `${k}-limit` : undefined}
          >
            {tp('addRow', { field: tp(k) })}
          </Button>
          {v[k].length >= MAX_ENTRIES && (
            <span id={`${k}-limit`} className={styles.muted}>
              {tp('limitReached', { field: tp(k) })}
            </span>
          )}
          {fieldErrors[k] && (
            <p className={styles.error} role="alert">
              {fieldErrors[k]}
            </p>
          )}
        </fieldset>
      ))}
      <div className={styles.aboutField}>
        <span className={styles.fieldLabel}>{tp('aboutMe')}</span>
        <RichTextEditor
          ref={about}
          initial={initial.aboutMe}
          japanese={locale === 'ja'}
          placeholder={tp('aboutMePlaceholder')}
          label={tp('aboutMe')}
          loadingText={tp('editorLoading')}
          failedText={tp('editorFailed')}
          invalid={!!fieldErrors.aboutMe}
          testId="profile-about-editor"
          onChange={() => setDirty(true)}
        />
        {fieldErrors.aboutMe && (
          <p className={styles.error} role="alert">
            {fieldErrors.aboutMe}
          </p>
        )}
      </div>
      {text('hobbies', true)}
      <PhotosField
        kind="hobby"
        label={tp('hobbyImages')}
        value={v.hobbyImages}
        onChange={(p) => set('hobbyImages', p)}
      />
      {text('talents', true)}
      <PhotosField
        kind="talent"
        label={tp('talentImages')}
        value={v.talentImages}
        onChange={(p) => set('talentImages', p)}
      />
      <PhotosField
        kind="header"
        label={tp('headerImages')}
        value={v.headerImages}
        onChange={(p) => set('headerImages', p)}
      />
      <div className={styles.formBar}>
        <Button type="submit" variant="primary" loading={saving} data-testid="profile-save">
          {tp('save')}
        </Button>
        <Button onClick={onCancel} disabled={saving} data-testid="profile-cancel">
          {tp('cancel')}
        </Button>
      </div>
    </form>
  );
}
