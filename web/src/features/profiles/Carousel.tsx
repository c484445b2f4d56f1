import { useEffect, useState, useSyncExternalStore } from 'react';
import { Button, IconButton } from '@primer/react';
import { ChevronLeftIcon, ChevronRightIcon } from '@primer/octicons-react';
import { useCatalog } from '../../app/i18n';
import type { Picture } from './pictures';
import { PROFILE } from './profiles.i18n';
import styles from './profiles.module.css';

const REDUCED = '(prefers-reduced-motion: reduce)';
const subscribe = (change: () => void) => {
  const mql = window.matchMedia(REDUCED);
  mql.addEventListener('change', change);
  return () => mql.removeEventListener('change', change);
};
const useReducedMotion = () =>
  useSyncExternalStore(
    subscribe,
    () => window.matchMedia(REDUCED).matches,
    () => true,
  );

/**
 * Photos one after another every `intervalMs` (the spec: hobbies 4 s, the others 5 s). It stops
 * while the pointer is over it or focus is in it, when the person pauses it, and never turns on
 * its own for people who ask their system for reduced motion; the buttons always move it.
 */
export function Carousel({
  label,
  pictures,
  intervalMs,
  testId,
}: {
  label: string;
  pictures: Picture[];
  intervalMs: number;
  testId?: string;
}) {
  const tp = useCatalog(PROFILE);
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [paused, setPaused] = useState(false);
  const reduced = useReducedMotion();
  const count = pictures.length;
  const turning = count > 1 && !hovered && !focused && !paused && !reduced;
  useEffect(() => {
    if (!turning) return;
    const h = window.setInterval(() => setIndex((i) => (i + 1) % count), intervalMs);
    return () => window.clearInterval(h);
  }, [turning, count, intervalMs]);
  if (count === 0) return null;
  const shown = Math.min(index, count - 1);
  const go = (d: number) => setIndex((i) => (i + d + count) % count);
  return (
    <section
      className={styles.carousel}
      aria-roledescription="carousel"
      aria-label={label}
      data-testid={testId}
      data-turning={turning || undefined}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setFocused(false)}
    >
      <div className={styles.slides} aria-live={turning ? 'off' : 'polite'}>
        {pictures.map((p, i) => (
          <figure
            key={p.url}
            className={styles.slide}
            hidden={i !== shown}
            role="group"
            aria-roledescription="slide"
            aria-label={tp('slide', { n: i + 1, count })}
          >
            <img src={p.url} alt={tp('photoOf', { field: label, n: i + 1 })} loading={i === 0 ? 'eager' : 'lazy'} />
          </figure>
        ))}
      </div>
      {count > 1 && (
        <div className={styles.carouselBar}>
          <IconButton
            icon={ChevronLeftIcon}
            size="small"
            variant="invisible"
            aria-label={tp('previous')}
            onClick={() => go(-1)}
          />
          <span className={styles.muted}>{tp('slide', { n: shown + 1, count })}</span>
          <IconButton
            icon={ChevronRightIcon}
            size="small"
            variant="invisible"
            aria-label={tp('next')}
            onClick={() => go(1)}
          />
          {!reduced && (
            <Button size="small" variant="invisible" aria-pressed={paused} onClick={() => setPaused((p) => !p)}>
              {paused ? tp('play') : tp('pause')}
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
