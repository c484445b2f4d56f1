import {
  CalendarIcon,
  DeviceDesktopIcon,
  DeviceMobileIcon,
  GraphIcon,
  IdBadgeIcon,
  KeyIcon,
  NoteIcon,
  OrganizationIcon,
  PeopleIcon,
  PersonIcon,
  PlugIcon,
  TagIcon,
  type Icon,
} from '@primer/octicons-react';
import type { AreaKey } from './areas';

/** Kept apart from areas.ts so the route table (in the first chunk) carries no icons. */
export const AREA_ICONS: Record<AreaKey, Icon> = {
  employees: IdBadgeIcon,
  departments: OrganizationIcon,
  apiKeys: PlugIcon,
  computers: DeviceDesktopIcon,
  smartphones: DeviceMobileIcon,
  microsoftOffice: KeyIcon,
  schedules: CalendarIcon,
  blog: NoteIcon,
  blogStatistics: GraphIcon,
  blogCategories: TagIcon,
  profile: PersonIcon,
  profileList: PeopleIcon,
};
