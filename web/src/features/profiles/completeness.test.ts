import { describe, expect, it } from 'vitest';
import { completeness } from './completeness';

const empty = {
  title: '',
  skills: [],
  languages: [],
  workExperience: [],
  education: [],
  aboutMeHtml: '',
  hobbies: '',
  address: '',
  phone: '',
};

describe('profile completeness', () => {
  it('counts each filled field once and names the missing ones in order', () => {
    expect(completeness(empty)).toEqual({
      percent: 0,
      missing: [
        'title',
        'skills',
        'languages',
        'workExperience',
        'education',
        'aboutMe',
        'hobbies',
        'address',
        'phone',
      ],
    });
    const some = completeness({ ...empty, title: '主任', skills: ['簿記'], aboutMeHtml: '<p> </p>', address: '  ' });
    expect(some.missing).toEqual([
      'languages',
      'workExperience',
      'education',
      'aboutMe',
      'hobbies',
      'address',
      'phone',
    ]);
    expect(some.percent).toBe(22);
    expect(
      completeness({
        ...empty,
        title: 'a',
        skills: ['b'],
        languages: ['c'],
        workExperience: ['d'],
        education: ['e'],
        aboutMeHtml: '<p>f</p>',
        hobbies: 'g',
        address: 'h',
        phone: '1',
      }).percent,
    ).toBe(100);
  });
});
