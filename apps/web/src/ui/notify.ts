import { notifications } from '@mantine/notifications';
import { i18n } from '../i18n/index.ts';

/** Spec §9: notifications close after 5000 ms unless a caller asks otherwise. */
export const NOTIFICATION_TIMEOUT_MS = 5000;

interface NotifyOptions {
  title?: string;
  autoClose?: number;
}

function show(color: string, message: string, options: NotifyOptions) {
  notifications.show({
    color,
    message,
    title: options.title,
    autoClose: options.autoClose ?? NOTIFICATION_TIMEOUT_MS,
    closeButtonProps: { 'aria-label': i18n.t('common.dismiss') },
  });
}

export function notifySuccess(message: string, options: NotifyOptions = {}) {
  show('teal', message, options);
}

/** Done, but not as hoped (a test case saved as a draft): orange, with the reason shown beside it. */
export function notifyWarning(message: string, options: NotifyOptions = {}) {
  show('orange', message, options);
}

export function notifyError(message: string, options: NotifyOptions = {}) {
  show('red', message, options);
}
