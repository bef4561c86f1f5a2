import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { MAX_NOTEBOOK_BYTES } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/client.ts';
import { useFormatters } from '../../i18n/format.ts';
import { saveBlob } from '../../ui/download.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import type { NotebookDocument } from './useNotebookDocument.ts';
import { downloadNotebookIpynb, uploadNotebookIpynb } from './workbooks.api.ts';

/** A file name from the notebook's name: no path separators or characters file systems refuse. */
export function ipynbFileName(name: string): string {
  const safe = Array.from(name, (char) => (char < ' ' || '\\/:*?"<>|'.includes(char) ? '_' : char))
    .join('')
    .trim();
  return `${safe || 'notebook'}.ipynb`;
}

/** Download and upload of the notebook as a Jupyter `.ipynb`. */
export function useNotebookFiles(
  notebook: { id: number; name: string },
  doc: NotebookDocument,
  onReplaced: () => void,
) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [downloading, setDownloading] = useState(false);
  const [uploading, setUploading] = useState(false);

  /** Saves first, so the file has what is on the screen. */
  const download = async () => {
    setDownloading(true);
    try {
      await doc.save();
      const { blob, filename } = await downloadNotebookIpynb(notebook.id);
      if (!saveBlob(blob, filename ?? ipynbFileName(notebook.name))) notifyError(t('common.downloadDenied'));
    } catch {
      notifyError(t('common.downloadFailed'));
    } finally {
      setDownloading(false);
    }
  };

  const upload = async (file: File) => {
    setUploading(true);
    try {
      let parsed: unknown;
      try {
        parsed = JSON.parse(await file.text());
      } catch {
        notifyError(t('workbook.upload.notNotebook'));
        return;
      }
      // Held so that no autosave of the old notebook lands after the new one.
      await doc.whileHeld(async () => doc.replace(await uploadNotebookIpynb(notebook.id, parsed)));
      onReplaced();
      notifySuccess(t('workbook.upload.done', { name: file.name }));
    } catch (error) {
      notifyError(
        isApiError(error, 400)
          ? t('workbook.upload.rejected', { detail: errorMessage(error, t) })
          : errorMessage(error, t),
      );
    } finally {
      setUploading(false);
    }
  };

  /** A picked file replaces the notebook after a confirmation; one too large is refused before sending. */
  const pickUpload = (file: File) => {
    if (file.size > MAX_NOTEBOOK_BYTES) {
      notifyError(t('workbook.upload.tooLarge', { size: format.bytes(MAX_NOTEBOOK_BYTES) }));
      return;
    }
    modals.openConfirmModal({
      title: t('workbook.upload.title', { name: file.name }),
      children: (
        <Text size="sm">
          {t('workbook.upload.confirm')} {t('common.confirmDiscard')}
        </Text>
      ),
      labels: { confirm: t('workbook.upload.replace'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => void upload(file),
    });
  };

  return { download, downloading, pickUpload, uploading };
}
