import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { ja, type MessageKey, type Messages } from './ja';

export type { MessageKey } from './ja';
export type Locale = 'ja' | 'en';
export const LOCALES: readonly Locale[] = ['ja', 'en'];

// Japanese ships with the first screen; English is its own chunk, fetched when chosen.
const catalogs: Partial<Record<Locale, Messages>> = { ja };
const loaders: Record<Locale, () => Promise<Messages>> = {
  ja: async () => ja,
  en: () => import('./en').then((m) => m.en),
};
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
  const [, setLoaded] = useState(0);

  useEffect(() => {
    if (catalogs[locale]) return;
    let live = true;
    void loaders[locale]().then((m) => {
      catalogs[locale] = m;
      if (live) setLoaded((n) => n + 1);
    });
    return () => {
      live = false;
    };
  }, [locale]);

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

  const messages = catalogs[locale];
  const value = useMemo<I18nValue>(() => ({ locale, setLocale, t: (key, params) => format((messages ?? ja)[key], params) }), [locale, setLocale, messages]);

  // Until a chosen language's catalog arrives (a few KB), show nothing rather than the other language.
  if (!messages) return null;
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
