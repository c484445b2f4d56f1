import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ja, type MessageKey, type Messages } from './ja';
import { en } from './en';

export type { MessageKey } from './ja';
export type Locale = 'ja' | 'en';
export const LOCALES: readonly Locale[] = ['ja', 'en'];

const catalogs: Record<Locale, Messages> = { ja, en };
const STORAGE_KEY = 'intranet.locale';

export type Translate = (key: MessageKey, params?: Record<string, string | number>) => string;

interface I18nValue {
  locale: Locale;
  setLocale(locale: Locale): void;
  t: Translate;
}

function readStoredLocale(): Locale {
  try {
    const v = window.localStorage.getItem(STORAGE_KEY);
    if (v === 'ja' || v === 'en') return v;
  } catch {
    /* storage unavailable: default */
  }
  return 'ja';
}

export function format(template: string, params?: Record<string, string | number>): string {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

const I18nContext = createContext<I18nValue | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  const [locale, setLocaleState] = useState<Locale>(readStoredLocale);

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  const setLocale = useCallback((next: Locale) => {
    setLocaleState(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      /* the choice then lasts for this page only */
    }
  }, []);

  const value = useMemo<I18nValue>(() => {
    const messages = catalogs[locale];
    return { locale, setLocale, t: (key, params) => format(messages[key], params) };
  }, [locale, setLocale]);

  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const v = useContext(I18nContext);
  if (!v) throw new Error('useI18n outside I18nProvider');
  return v;
}

export function useT(): Translate {
  return useI18n().t;
}

/** Sets document.title to "<page> | <app name>" while the calling screen is shown. */
export function useDocumentTitle(page: string): void {
  const { t } = useI18n();
  useEffect(() => {
    document.title = t('app.documentTitle', { page });
  }, [page, t]);
}
