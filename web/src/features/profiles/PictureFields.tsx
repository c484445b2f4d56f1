import { useRef, useState } from 'react';
import { Button, IconButton, Spinner } from '@primer/react';
import { ImageIcon, PlusIcon, XIcon } from '@primer/octicons-react';
import { useCatalog } from '../../app/i18n';
import { Avatar } from '../../components/Avatar';
import { CropDialog } from './CropDialog';
import {
  croppedSquare,
  decode,
  forSending,
  PICTURE_TYPES,
  PictureRefused,
  uploadPicture,
  type Picture,
  type PictureKind,
} from './pictures';
import { PROFILE } from './profiles.i18n';
import styles from './profiles.module.css';

const MAX_PHOTOS = 10;

function useRefusal() {
  const tp = useCatalog(PROFILE);
  const [error, setError] = useState<string | null>(null);
  const messages = { type: tp('pictureType'), size: tp('pictureSize'), unreadable: tp('pictureUnreadable') };
  const refused = (e: unknown) => setError(e instanceof PictureRefused ? e.message : tp('pictureFailed'));
  return { error, setError, messages, refused, failed: tp('pictureFailed') };
}

/** The avatar: choose a picture, crop it to a square in the browser, upload the square; or remove it. */
export function AvatarField({
  name,
  value,
  onChange,
}: {
  name: string;
  value: Picture | null;
  onChange(p: Picture | null): void;
}) {
  const tp = useCatalog(PROFILE);
  const input = useRef<HTMLInputElement>(null);
  const [image, setImage] = useState<{ bitmap: ImageBitmap; name: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const { error, setError, messages, refused, failed } = useRefusal();
  return (
    <div className={styles.avatarField} data-testid="profile-avatar-field">
      <span className={styles.fieldLabel}>{tp('avatar')}</span>
      <div className={styles.avatarRow}>
        <Avatar name={name} size={72} src={value?.thumbnailUrl} />
        <Button leadingVisual={ImageIcon} onClick={() => input.current?.click()}>
          {tp('chooseAvatar')}
        </Button>
        {value && (
          <Button variant="invisible" onClick={() => onChange(null)}>
            {tp('removeAvatar')}
          </Button>
        )}
        <input
          ref={input}
          type="file"
          accept={PICTURE_TYPES.join(',')}
          hidden
          aria-label={tp('chooseAvatar')}
          data-testid="profile-avatar-file"
          onChange={async (e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (!file) return;
            setError(null);
            try {
              setImage({ bitmap: await decode(file, messages), name: file.name });
            } catch (err) {
              refused(err);
            }
          }}
        />
      </div>
      <span className={styles.muted}>{tp('avatarHint')}</span>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      {image && (
        <CropDialog
          image={image.bitmap}
          busy={busy}
          onClose={() => setImage(null)}
          onCrop={async (crop) => {
            setBusy(true);
            try {
              onChange(await uploadPicture('avatar', await croppedSquare(image.bitmap, crop), 'avatar.png', failed));
              setImage(null);
            } catch (err) {
              refused(err);
              setImage(null);
            } finally {
              setBusy(false);
            }
          }}
        />
      )}
    </div>
  );
}

/** Photos of one kind (hobbies, talents, the header): thumbnails in order, each removable; up to 10, made small in the browser before upload. */
export function PhotosField({
  kind,
  label,
  value,
  onChange,
}: {
  kind: PictureKind;
  label: string;
  value: Picture[];
  onChange(p: Picture[]): void;
}) {
  const tp = useCatalog(PROFILE);
  const input = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState(0);
  const { error, setError, messages, refused, failed } = useRefusal();
  const full = value.length + uploading >= MAX_PHOTOS;
  const add = async (files: File[]) => {
    setError(null);
    const room = MAX_PHOTOS - value.length;
    const chosen = files.slice(0, room);
    if (files.length > room) setError(tp('photosLimit', { field: label }));
    setUploading(chosen.length);
    const added: Picture[] = [];
    for (const file of chosen) {
      try {
        added.push(
          await uploadPicture(
            kind,
            await forSending(await decode(file, messages)),
            file.name.replace(/\.\w+$/, '.jpg'),
            failed,
          ),
        );
      } catch (err) {
        refused(err);
      }
      setUploading((n) => n - 1);
    }
    onChange([...value, ...added]);
  };
  return (
    <fieldset className={styles.listField} data-testid={`profile-photos-${kind}`}>
      <legend>{label}</legend>
      {value.length > 0 && (
        <ul className={styles.photos}>
          {value.map((p, i) => (
            <li key={p.url} className={styles.photo}>
              <img src={p.thumbnailUrl} alt={tp('photoOf', { field: label, n: i + 1 })} loading="lazy" />
              <IconButton
                icon={XIcon}
                size="small"
                aria-label={tp('removePhoto', { field: label, n: i + 1 })}
                className={styles.photoRemove}
                onClick={() => onChange(value.filter((x) => x.url !== p.url))}
              />
            </li>
          ))}
        </ul>
      )}
      <div className={styles.avatarRow}>
        <Button size="small" leadingVisual={PlusIcon} disabled={full} onClick={() => input.current?.click()}>
          {tp('addPhotos')}
        </Button>
        {uploading > 0 && <Spinner size="small" srText={tp('uploading')} />}
        {full && <span className={styles.muted}>{tp('photosLimit', { field: label })}</span>}
      </div>
      <input
        ref={input}
        type="file"
        accept={PICTURE_TYPES.join(',')}
        multiple
        hidden
        aria-label={tp('addPhotos')}
        data-testid={`profile-photos-${kind}-file`}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          if (files.length) void add(files);
        }}
      />
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
    </fieldset>
  );
}
