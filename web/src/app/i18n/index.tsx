import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
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

/** A language's catalog, loaded once (a failed load is tried again on the next call). */
const loadCatalog = async (locale: Locale): Promise<Messages> => (catalogs[locale] ??= await loaders[locale]());

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

  // The stored language at start: its catalog is awaited; if it cannot be had, the app is Japanese
  // (the choice stays stored, and is tried again on the next visit).
  useEffect(() => {
    if (catalogs[locale]) return;
    let live = true;
    loadCatalog(locale).then(
      () => live && setLoaded((n) => n + 1),
      () => live && setLocaleState('ja'),
    );
    return () => {
      live = false;
    };
  }, [locale]);

  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);

  // A switch keeps the screen in its language until the other's catalog is here: never a blank app,
  // and a catalog that cannot be had leaves the language as it was (the next choice tries again).
  // The last choice wins: a catalog that arrives after the viewer chose again changes nothing.
  const chosen = useRef<Locale | null>(null);
  const setLocale = useCallback((next: Locale) => {
    chosen.current = next;
    loadCatalog(next).then(
      () => {
        if (chosen.current !== next) return;
        setLocaleState(next);
        try {
          window.localStorage.setItem(STORAGE_KEY, next);
        } catch {
          /* the choice then lasts for this page only */
        }
      },
      () => undefined,
    );
  }, []);

  const messages = catalogs[locale];
  const value = useMemo<I18nValue>(
    () => ({ locale, setLocale, t: (key, params) => format((messages ?? ja)[key], params) }),
    [locale, setLocale, messages],
  );

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

/** A feature's own messages, shipped with its chunk: Japanese and English with the same keys (a key missing from one is a compile error). */
export function defineCatalog<K extends string>(catalog: {
  ja: Record<K, string>;
  en: NoInfer<Record<K, string>>;
}): Record<Locale, Record<K, string>> {
  return catalog;
}

/** A feature catalog's messages in the current language, through format(). */
export function useCatalog<K extends string>(
  catalog: Record<Locale, Record<K, string>>,
): (key: K, params?: Record<string, string | number>) => string {
  const { locale } = useI18n();
  return useCallback(
    (key: K, params?: Record<string, string | number>) => format(catalog[locale][key], params),
    [catalog, locale],
  );
}

/** Sets document.title to "<page> | <app name>" while the calling screen is shown. */
export function useDocumentTitle(page: string): void {
  const { t } = useI18n();
  useEffect(() => {
    document.title = t('app.documentTitle', { page });
  }, [page, t]);
}
