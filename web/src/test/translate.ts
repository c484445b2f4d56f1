import { ja, type MessageKey } from '../app/i18n/ja';
import type { Translate } from '../app/i18n';

/** The app's own Japanese catalogue as a `t` for unit tests (the same placeholders as the screens). */
export const tJa: Translate = (key: MessageKey, params?: Record<string, string | number>) =>
  ja[key].replace(/\{(\w+)\}/g, (_, name: string) => String(params?.[name] ?? `{${name}}`));
