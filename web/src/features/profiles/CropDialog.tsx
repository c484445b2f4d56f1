import { useEffect, useRef, useState } from 'react';
import { Dialog, FormControl } from '@primer/react';
import { useCatalog } from '../../app/i18n';
import { cropOf } from './pictures';
import { PROFILE } from './profiles.i18n';
import styles from './profiles.module.css';

const VIEW = 280;

/**
 * The avatar's square, chosen before upload (faces cut badly are what people complain of most):
 * the preview shows exactly what will be kept; drag it (or use the arrow keys) to move, the slider
 * to zoom. Confirming hands the square to `onCrop`.
 */
export function CropDialog({
  image,
  busy,
  onCrop,
  onClose,
}: {
  image: ImageBitmap;
  busy: boolean;
  onCrop(crop: { x: number; y: number; size: number }): void;
  onClose(): void;
}) {
  const tp = useCatalog(PROFILE);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [zoom, setZoom] = useState(1);
  const [centre, setCentre] = useState({ x: 0.5, y: 0.5 });
  const crop = cropOf(image.width, image.height, zoom, centre.x, centre.y);
  const drag = useRef<{ px: number; py: number; cx: number; cy: number } | null>(null);

  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return;
    ctx.clearRect(0, 0, VIEW, VIEW);
    ctx.drawImage(image, crop.x, crop.y, crop.size, crop.size, 0, 0, VIEW, VIEW);
  }, [image, crop.x, crop.y, crop.size]);

  // One preview pixel is crop.size / VIEW picture pixels: a drag moves the picture under the square.
  const move = (dx: number, dy: number, from = centre) =>
    setCentre({
      x: Math.min(1, Math.max(0, from.x - (dx * crop.size) / VIEW / image.width)),
      y: Math.min(1, Math.max(0, from.y - (dy * crop.size) / VIEW / image.height)),
    });

  return (
    <Dialog
      title={tp('cropTitle')}
      onClose={onClose}
      position={{ narrow: 'fullscreen', regular: 'center' }}
      footerButtons={[
        { content: tp('cancel'), onClick: onClose },
        { content: tp('cropUse'), buttonType: 'primary', onClick: () => onCrop(crop), loading: busy, disabled: busy },
      ]}
    >
      <div className={styles.crop}>
        <canvas
          ref={canvas}
          width={VIEW}
          height={VIEW}
          className={styles.cropView}
          role="img"
          aria-label={tp('cropPreview')}
          tabIndex={0}
          data-testid="profile-crop"
          onPointerDown={(e) => {
            e.currentTarget.setPointerCapture(e.pointerId);
            drag.current = { px: e.clientX, py: e.clientY, cx: centre.x, cy: centre.y };
          }}
          onPointerMove={(e) => {
            const d = drag.current;
            if (d) move(e.clientX - d.px, e.clientY - d.py, { x: d.cx, y: d.cy });
          }}
          onPointerUp={() => (drag.current = null)}
          onKeyDown={(e) => {
            const step = 10;
            const by: Record<string, [number, number]> = {
              ArrowLeft: [step, 0],
              ArrowRight: [-step, 0],
              ArrowUp: [0, step],
              ArrowDown: [0, -step],
            };
            const d = by[e.key];
            if (!d) return;
            e.preventDefault();
            move(d[0], d[1]);
          }}
        />
        <p className={styles.muted}>{tp('cropHint')}</p>
        <FormControl>
          <FormControl.Label>{tp('cropZoom')}</FormControl.Label>
          <input
            type="range"
            min={1}
            max={4}
            step={0.05}
            value={zoom}
            onChange={(e) => setZoom(Number(e.target.value))}
            className={styles.cropZoom}
            data-testid="profile-crop-zoom"
          />
        </FormControl>
      </div>
    </Dialog>
  );
}
