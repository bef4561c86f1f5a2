import { useTranslation } from 'react-i18next';

/** Dates and numbers in the reader's language, through Intl. */
export function formatDateTime(value: string | Date, language: string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}

export function formatDate(value: string | Date, language: string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium' }).format(date);
}

export function formatNumber(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}

export function useFormatters() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return {
    dateTime: (value: string | Date) => formatDateTime(value, language),
    date: (value: string | Date) => formatDate(value, language),
    number: (value: number) => formatNumber(value, language),
    dateTimeWithZone: (value: string | Date) => formatDateTimeWithZone(value, language),
    bytes: (value: number) => formatBytes(value, language),
  };
}

/** A date and time with the reader's time zone named, for deadlines ("2026/11/30 23:59 JST"). */
export function formatDateTimeWithZone(value: string | Date, language: string): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  return new Intl.DateTimeFormat(language, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    weekday: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(date);
}

/** A file size in B, kB or MB (1 kB = 1024 B, as file limits are set). */
export function formatBytes(bytes: number, language: string): string {
  // Intl spells bytes out ("46 byte"); B reads the same in both languages.
  if (bytes < 1024) return `${new Intl.NumberFormat(language).format(bytes)} B`;
  const [unit, divisor] =
    bytes >= 1024 * 1024
      ? (['megabyte', 1024 * 1024] as const)
      : bytes >= 1024
        ? (['kilobyte', 1024] as const)
        : (['byte', 1] as const);
  return new Intl.NumberFormat(language, { style: 'unit', unit, maximumFractionDigits: 1 }).format(
    bytes / divisor,
  );
}
