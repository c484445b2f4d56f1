import type { ReactNode } from 'react';
import { Label } from '@primer/react';
import { LockIcon } from '@primer/octicons-react';
import { useCatalog } from '../../app/i18n';
import type { ProfileFieldsFragment } from '../../gql/graphql';
import { Carousel } from './Carousel';
import { PROFILE } from './profiles.i18n';
import styles from './profiles.module.css';
import { RichTextView } from '../../components/rich-text/RichTextView';

/**
 * The left column in view mode: basic information (the owner sees who else sees the address and the
 * phone), skills and languages as chips, experience and education as lists, about me (HTML the
 * server sanitized), hobbies and talents. An empty section says 未記入 rather than disappearing, so
 * the owner sees what is left to fill in.
 */
export function ProfileView({ profile: p }: { profile: ProfileFieldsFragment }) {
  const tp = useCatalog(PROFILE);
  const owner = p.canEdit;
  const personal = (value: string | null, visibility: ProfileFieldsFragment['addressVisibility']) =>
    value === null ? (
      <span className={styles.muted}>
        <LockIcon size={12} /> {tp('hidden')}
      </span>
    ) : (
      <>
        {value || <span className={styles.muted}>{tp('empty')}</span>}
        {owner && (
          <Label variant="secondary" className={styles.visibilityLabel}>
            {tp(`visibility.${visibility}`)}
          </Label>
        )}
      </>
    );
  return (
    <div className={styles.sections} data-testid="profile-view">
      <Section title={tp('basic')}>
        <dl className={styles.basic}>
          <Item label={tp('title')} value={p.title || <span className={styles.muted}>{tp('empty')}</span>} />
          <Item label={tp('department')} value={p.departmentName ?? '—'} />
          <Item label={tp('location')} value={p.locationName ?? '—'} />
          <Item label={tp('email')} value={p.email ? <a href={`mailto:${p.email}`}>{p.email}</a> : '—'} />
          <Item label={tp('phone')} value={personal(p.phone, p.phoneVisibility)} testId="profile-phone" />
          <Item label={tp('address')} value={personal(p.address, p.addressVisibility)} testId="profile-address" />
        </dl>
      </Section>
      <Section title={tp('skills')}>
        <Chips items={p.skills} empty={tp('empty')} />
      </Section>
      <Section title={tp('languages')}>
        <Chips items={p.languages} empty={tp('empty')} />
      </Section>
      <Section title={tp('workExperience')}>
        <Lines items={p.workExperience} empty={tp('empty')} />
      </Section>
      <Section title={tp('education')}>
        <Lines items={p.education} empty={tp('empty')} />
      </Section>
      <Section title={tp('aboutMe')}>
        {p.aboutMeHtml ? (
          <RichTextView html={p.aboutMeHtml} testId="profile-about" />
        ) : (
          <p className={styles.muted}>{tp('empty')}</p>
        )}
      </Section>
      <Section title={tp('hobbies')}>
        {p.hobbies ? (
          <p className={styles.pre}>{p.hobbies}</p>
        ) : (
          p.hobbyImages.length === 0 && <p className={styles.muted}>{tp('empty')}</p>
        )}
        <Carousel
          label={tp('hobbyImages')}
          pictures={p.hobbyImages}
          intervalMs={4000}
          testId="profile-hobby-carousel"
        />
      </Section>
      <Section title={tp('talents')}>
        {p.talents ? (
          <p className={styles.pre}>{p.talents}</p>
        ) : (
          p.talentImages.length === 0 && <p className={styles.muted}>{tp('empty')}</p>
        )}
        <Carousel
          label={tp('talentImages')}
          pictures={p.talentImages}
          intervalMs={5000}
          testId="profile-talent-carousel"
        />
      </Section>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className={styles.section}>
      <h2 className={styles.sectionTitle}>{title}</h2>
      {children}
    </section>
  );
}

function Item({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div className={styles.item} data-testid={testId}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

function Chips({ items, empty }: { items: readonly string[]; empty: string }) {
  if (items.length === 0) return <p className={styles.muted}>{empty}</p>;
  return (
    <ul className={styles.chips}>
      {items.map((c, i) => (
        <li key={`${i}-${c}`} className={styles.chip}>
          {c}
        </li>
      ))}
    </ul>
  );
}

function Lines({ items, empty }: { items: readonly string[]; empty: string }) {
  if (items.length === 0) return <p className={styles.muted}>{empty}</p>;
  return (
    <ul className={styles.lines}>
      {items.map((c, i) => (
        <li key={`${i}-${c}`}>{c}</li>
      ))}
    </ul>
  );
}
