import { DatabaseIcon, DeviceDesktopIcon, OrganizationIcon, type Icon } from '@primer/octicons-react';
import type { EmployeeRole } from '../gql/graphql';
import { canAccess, type Access } from './access';
import { AREA_ICONS } from './area-icons';
import { AREAS, type AreaKey } from './areas';
import type { MessageKey } from './i18n';

/** A menu entry that opens a screen. */
export interface MenuLeaf {
  kind: 'leaf';
  id: string;
  area: AreaKey;
  /** Short label inside its group (e.g. ブログ › 設定). */
  label: MessageKey;
  /** Standalone label, for the home buttons (e.g. ブログカテゴリ設定). */
  longLabel: MessageKey;
  icon: Icon;
  access: Access;
  to: string;
  /** The narrow-screen route, where the spec has one. */
  spTo?: string;
  /** Whether this entry is the current one for a path. */
  matches: RegExp;
}

/** An entry with sub-entries (組織 › 社員, 部署). */
export interface MenuParent {
  kind: 'parent';
  id: string;
  label: MessageKey;
  icon: Icon;
  children: MenuLeaf[];
}

export interface MenuGroup {
  id: string;
  /** Group heading; a group without one is a single top-level entry. */
  title?: MessageKey;
  icon?: Icon;
  children: (MenuLeaf | MenuParent)[];
}

function leaf(area: AreaKey, label: MessageKey, to: string, matches: RegExp, spTo?: string): MenuLeaf {
  const a = AREAS[area];
  return {
    kind: 'leaf',
    id: area,
    area,
    label,
    longLabel: a.titles.list,
    icon: AREA_ICONS[area],
    access: a.access,
    to,
    spTo,
    matches,
  };
}

/** The sidebar of spec section 2 ("Menu"); visibility per spec section 6. */
export const MENU: MenuGroup[] = [
  {
    id: 'master',
    title: 'nav.group.master',
    icon: DatabaseIcon,
    children: [
      {
        kind: 'parent',
        id: 'organization',
        label: 'nav.group.organization',
        icon: OrganizationIcon,
        children: [
          leaf('employees', 'nav.employees', '/employees', /^\/employees(\/|$)/),
          leaf('departments', 'nav.departments', '/departments', /^\/departments(\/|$)/),
        ],
      },
      {
        kind: 'parent',
        id: 'devices',
        label: 'nav.group.devices',
        icon: DeviceDesktopIcon,
        children: [
          leaf('computers', 'nav.computers', '/computers', /^\/computers(\/|$)/, '/computers/sp'),
          leaf('smartphones', 'nav.smartphones', '/smartphones', /^\/smartphones(\/|$)/, '/smartphones/sp'),
        ],
      },
      leaf('microsoftOffice', 'nav.microsoftOffice', '/microsoft_office', /^\/microsoft_office(\/|$)/),
      leaf('apiKeys', 'nav.apiKeys', '/api_keys', /^\/api_keys(\/|$)/),
    ],
  },
  {
    id: 'schedule',
    children: [leaf('schedules', 'nav.schedule', '/schedules', /^\/schedules(\/|$)/, '/schedules/sp')],
  },
  {
    id: 'blog',
    title: 'nav.group.blog',
    children: [
      leaf('blogCategories', 'nav.blogSettings', '/blog_category', /^\/blog_category(\/|$)/),
      leaf('blog', 'nav.blogList', '/blog', /^\/blog(\/(?!statistics(\/|$))|$)/, '/blog/sp'),
      leaf('blogStatistics', 'nav.blogStatistics', '/blog/statistics', /^\/blog\/statistics(\/|$)/),
    ],
  },
  {
    id: 'profile',
    title: 'nav.group.profile',
    children: [
      leaf('profile', 'nav.myProfile', '/profile', /^\/profile(\/sp)?\/?$/, '/profile/sp'),
      leaf('profileList', 'nav.profileList', '/profile_list', /^\/profile_list(\/|$)/, '/profile_list/sp'),
    ],
  },
];

/** The menu as one role sees it: hidden entries removed, then empty parents and groups. */
export function menuFor(role: EmployeeRole): MenuGroup[] {
  const out: MenuGroup[] = [];
  for (const g of MENU) {
    const children: (MenuLeaf | MenuParent)[] = [];
    for (const c of g.children) {
      if (c.kind === 'leaf') {
        if (canAccess(role, c.access)) children.push(c);
      } else {
        const kids = c.children.filter((k) => canAccess(role, k.access));
        if (kids.length) children.push({ ...c, children: kids });
      }
    }
    if (children.length) out.push({ ...g, children });
  }
  return out;
}

/** Every visible screen entry, in menu order (for the home buttons). */
export function leavesFor(role: EmployeeRole): MenuLeaf[] {
  return menuFor(role).flatMap((g) => g.children.flatMap((c) => (c.kind === 'leaf' ? [c] : c.children)));
}

export function hrefOf(item: MenuLeaf, narrow: boolean): string {
  return narrow && item.spTo ? item.spTo : item.to;
}
