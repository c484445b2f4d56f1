import type { Access } from './access';
import type { MessageKey } from './i18n';

export type AreaKey =
  | 'employees'
  | 'departments'
  | 'apiKeys'
  | 'computers'
  | 'smartphones'
  | 'microsoftOffice'
  | 'schedules'
  | 'blog'
  | 'blogStatistics'
  | 'blogCategories'
  | 'profile'
  | 'profileList';

export type PageMode = 'list' | 'new' | 'detail';

export interface AreaDef {
  key: AreaKey;
  access: Access;
  /** The menu's section, shown above the page title. */
  section: MessageKey;
  description: MessageKey;
  titles: { list: MessageKey; new?: MessageKey; detail?: MessageKey };
}

export const AREAS: Record<AreaKey, AreaDef> = {
  employees: {
    key: 'employees',
    access: 'admin',
    section: 'area.master',
    description: 'desc.employees',
    titles: { list: 'page.employees', new: 'page.employeeNew', detail: 'page.employeeDetail' },
  },
  departments: {
    key: 'departments',
    access: 'admin',
    section: 'area.master',
    description: 'desc.departments',
    titles: { list: 'page.departments', new: 'page.departmentNew', detail: 'page.departmentDetail' },
  },
  apiKeys: {
    key: 'apiKeys',
    access: 'admin',
    section: 'area.master',
    description: 'desc.apiKeys',
    titles: { list: 'page.apiKeys' },
  },
  computers: {
    key: 'computers',
    access: 'device',
    section: 'area.devices',
    description: 'desc.computers',
    titles: { list: 'page.computers', new: 'page.computerNew', detail: 'page.computerDetail' },
  },
  smartphones: {
    key: 'smartphones',
    access: 'device',
    section: 'area.devices',
    description: 'desc.smartphones',
    titles: { list: 'page.smartphones', new: 'page.smartphoneNew', detail: 'page.smartphoneDetail' },
  },
  microsoftOffice: {
    key: 'microsoftOffice',
    access: 'device',
    section: 'area.master',
    description: 'desc.microsoftOffice',
    titles: { list: 'page.microsoftOffice', new: 'page.microsoftOfficeNew', detail: 'page.microsoftOfficeDetail' },
  },
  schedules: {
    key: 'schedules',
    access: 'all',
    section: 'area.schedule',
    description: 'desc.schedules',
    titles: { list: 'page.schedules' },
  },
  blog: {
    key: 'blog',
    access: 'all',
    section: 'area.blog',
    description: 'desc.blog',
    titles: { list: 'page.blog', new: 'page.blogNew', detail: 'page.blogDetail' },
  },
  blogStatistics: {
    key: 'blogStatistics',
    access: 'all',
    section: 'area.blog',
    description: 'desc.blogStatistics',
    titles: { list: 'page.blogStatistics' },
  },
  blogCategories: {
    key: 'blogCategories',
    access: 'admin',
    section: 'area.blog',
    description: 'desc.blogCategories',
    titles: { list: 'page.blogCategories', new: 'page.blogCategoryNew', detail: 'page.blogCategoryDetail' },
  },
  profile: {
    key: 'profile',
    access: 'all',
    section: 'area.profile',
    description: 'desc.profile',
    titles: { list: 'page.myProfile', detail: 'page.profile' },
  },
  profileList: {
    key: 'profileList',
    access: 'all',
    section: 'area.profile',
    description: 'desc.profileList',
    titles: { list: 'page.profileList' },
  },
};

/** One row of the spec's route table (section 2 of both documents). */
export interface PageDef {
  path: string;
  area: AreaKey;
  mode: PageMode;
  /** An "sp" route: the narrow-screen variant. */
  mobile?: boolean;
}

const dev = (area: AreaKey, base: string): PageDef[] => [
  { path: base, area, mode: 'list' },
  { path: `${base}/sp`, area, mode: 'list', mobile: true },
  { path: `${base}/new`, area, mode: 'new' },
  { path: `${base}/sp/new`, area, mode: 'new', mobile: true },
  { path: `${base}/:id`, area, mode: 'detail' },
  { path: `${base}/sp/:id`, area, mode: 'detail', mobile: true },
];

export const PAGES: PageDef[] = [
  { path: '/employees', area: 'employees', mode: 'list' },
  { path: '/employees/new', area: 'employees', mode: 'new' },
  { path: '/employees/:id', area: 'employees', mode: 'detail' },
  { path: '/departments', area: 'departments', mode: 'list' },
  // The route named DepartmentDetail: an empty id or "new" creates a department.
  { path: '/departments/detail/:id?', area: 'departments', mode: 'detail' },
  { path: '/departments/:id', area: 'departments', mode: 'detail' },
  { path: '/api_keys', area: 'apiKeys', mode: 'list' },
  ...dev('computers', '/computers'),
  ...dev('smartphones', '/smartphones'),
  { path: '/microsoft_office', area: 'microsoftOffice', mode: 'list' },
  { path: '/microsoft_office/new', area: 'microsoftOffice', mode: 'new' },
  { path: '/microsoft_office/:id', area: 'microsoftOffice', mode: 'detail' },
  { path: '/schedules', area: 'schedules', mode: 'list' },
  { path: '/schedules/sp', area: 'schedules', mode: 'list', mobile: true },
  // /blog itself is a redirect on mobile browsers; see the router.
  { path: '/blog', area: 'blog', mode: 'list' },
  { path: '/blog/sp', area: 'blog', mode: 'list', mobile: true },
  { path: '/blog/new', area: 'blog', mode: 'new' },
  { path: '/blog/sp/new', area: 'blog', mode: 'new', mobile: true },
  { path: '/blog/statistics', area: 'blogStatistics', mode: 'list' },
  { path: '/blog/:id', area: 'blog', mode: 'detail' },
  { path: '/blog/sp/:id', area: 'blog', mode: 'detail', mobile: true },
  { path: '/blog_category', area: 'blogCategories', mode: 'list' },
  { path: '/blog_category/new', area: 'blogCategories', mode: 'new' },
  { path: '/blog_category/:id', area: 'blogCategories', mode: 'detail' },
  // The route named ProfileEdit: without an id it is the user's own profile.
  { path: '/profile', area: 'profile', mode: 'list' },
  { path: '/profile/sp', area: 'profile', mode: 'list', mobile: true },
  { path: '/profile/:id', area: 'profile', mode: 'detail' },
  { path: '/profile/sp/:id', area: 'profile', mode: 'detail', mobile: true },
  { path: '/profile_list', area: 'profileList', mode: 'list' },
  { path: '/profile_list/sp', area: 'profileList', mode: 'list', mobile: true },
];

/** The title of a page, given its route parameters ("new" or an empty id means creation). */
export function pageTitleKey(def: PageDef, id: string | undefined): MessageKey {
  const t = AREAS[def.area].titles;
  if (def.mode === 'new') return t.new ?? t.list;
  if (def.mode === 'detail') {
    if ((id === undefined || id === '' || id === 'new') && t.new) return t.new;
    return t.detail ?? t.list;
  }
  return t.list;
}
