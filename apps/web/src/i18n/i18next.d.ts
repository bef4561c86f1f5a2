import 'i18next';
import type enUS from './en-US.json';

// Keys are checked at compile time against the English file; the parity test keeps ja.json in step.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof enUS };
  }
}
