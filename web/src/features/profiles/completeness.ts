/** What makes a profile findable, in the order the nudge names what is missing. */
export const COMPLETENESS_FIELDS = [
  'title',
  'skills',
  'languages',
  'workExperience',
  'education',
  'aboutMe',
  'hobbies',
  'address',
  'phone',
] as const;
export type CompletenessField = (typeof COMPLETENESS_FIELDS)[number];

export interface ProfileFilling {
  title: string;
  skills: readonly string[];
  languages: readonly string[];
  workExperience: readonly string[];
  education: readonly string[];
  aboutMeHtml: string;
  hobbies: string;
  address: string | null;
  phone: string | null;
}

const filled = (p: ProfileFilling, f: CompletenessField): boolean => {
  switch (f) {
    case 'aboutMe':
      return p.aboutMeHtml.replace(/<[^>]*>/g, '').trim() !== '';
    case 'skills':
    case 'languages':
    case 'workExperience':
    case 'education':
      return p[f].length > 0;
    default:
      return (p[f] ?? '').trim() !== '';
  }
};

/** How complete a profile is (the owner's ring), and what is still missing. */
export function completeness(p: ProfileFilling): { percent: number; missing: CompletenessField[] } {
  const missing = COMPLETENESS_FIELDS.filter((f) => !filled(p, f));
  return {
    percent: Math.round(((COMPLETENESS_FIELDS.length - missing.length) / COMPLETENESS_FIELDS.length) * 100),
    missing,
  };
}
