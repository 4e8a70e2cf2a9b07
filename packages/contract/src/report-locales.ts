/**
 * The languages Power BI shows reports in (its `localeSettings.language`, "Supported languages and countries/regions
 * for Power BI"): the portal's REPORT_LOCALE and a panel's `idioma` must be one of them, since Power BI silently
 * falls back to English on any other tag.
 */
export const POWER_BI_LOCALES = [
  'ar-SA',
  'bg-BG',
  'ca-ES',
  'cs-CZ',
  'da-DK',
  'de-DE',
  'el-GR',
  'en-US',
  'es-ES',
  'et-EE',
  'eu-ES',
  'fi-FI',
  'fr-FR',
  'gl-ES',
  'he-IL',
  'hi-IN',
  'hr-HR',
  'hu-HU',
  'id-ID',
  'it-IT',
  'ja-JP',
  'kk-KZ',
  'ko-KR',
  'lt-LT',
  'lv-LV',
  'ms-MY',
  'nb-NO',
  'nl-NL',
  'pl-PL',
  'pt-BR',
  'pt-PT',
  'ro-RO',
  'ru-RU',
  'sk-SK',
  'sl-SI',
  'sr-Cyrl-CS',
  'sr-Latn-CS',
  'sv-SE',
  'th-TH',
  'tr-TR',
  'uk-UA',
  'vi-VN',
  'zh-CN',
  'zh-TW',
] as const;
export type PowerBiLocale = (typeof POWER_BI_LOCALES)[number];

/** The portal's default when REPORT_LOCALE is not set. */
export const DEFAULT_REPORT_LOCALE: PowerBiLocale = 'pt-BR';

/** The short list an administrator picks a panel's language from (any supported tag is accepted by the API). */
export const REPORT_LOCALE_CHOICES: { tag: PowerBiLocale; nome: string }[] = [
  { tag: 'pt-BR', nome: 'Português (Brasil)' },
  { tag: 'pt-PT', nome: 'Português (Portugal)' },
  { tag: 'en-US', nome: 'Inglês (Estados Unidos)' },
  { tag: 'es-ES', nome: 'Espanhol (Espanha)' },
  { tag: 'fr-FR', nome: 'Francês (França)' },
  { tag: 'de-DE', nome: 'Alemão (Alemanha)' },
  { tag: 'it-IT', nome: 'Italiano (Itália)' },
];

export function isPowerBiLocale(value: string): value is PowerBiLocale {
  return (POWER_BI_LOCALES as readonly string[]).includes(value);
}

/** What the report loads with: the panel's language when it has one, else the portal's. */
export function reportLocaleOf(idioma: string | null | undefined, portalDefault: string): string {
  return idioma ?? portalDefault;
}
