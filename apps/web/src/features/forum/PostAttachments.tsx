import { Anchor, Group, List, Skeleton, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ForumFile } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatters } from '../../i18n/format.ts';
import { followDownload } from '../../ui/download.ts';
import { notifyError } from '../../ui/notify.ts';
import { getSignedUrl } from './forum.api.ts';
import { signedUrlQuery } from './forum.queries.ts';
import classes from './Forum.module.css';

function Thumbnail({ file }: { file: ForumFile }) {
  const signed = useQuery(signedUrlQuery(file.id));
  if (!signed.data) return <Skeleton width={160} height={120} />;
  return <img src={signed.data.url} alt={file.filename} className={classes.thumbnail} loading="lazy" />;
}

/**
 * A post's files. Signed URLs live briefly: images get one when shown; other files ask for a fresh
 * one at the moment they are downloaded, so a page left open for an hour still downloads.
 */
export function PostAttachments({ files }: { files: readonly ForumFile[] }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const [pending, setPending] = useState<number | null>(null);
  if (files.length === 0) return null;

  const download = async (file: ForumFile) => {
    setPending(file.id);
    try {
      const signed = await getSignedUrl(file.id);
      followDownload(signed.url, file.filename);
    } catch {
      notifyError(t('common.downloadFailed'));
    } finally {
      setPending(null);
    }
  };

  const images = files.filter((file) => file.is_image);
  return (
    <Stack gap="xs" component="section" aria-label={t('forum.attachments')}>
      {images.length > 0 ? (
        <Group gap="sm" wrap="wrap">
          {images.map((file) => (
            <Thumbnail key={file.id} file={file} />
          ))}
        </Group>
      ) : null}
      <List spacing={4} listStyleType="none" p={0}>
        {files.map((file) => (
          <List.Item key={file.id}>
            <Group gap="xs" wrap="nowrap">
              <IconDownload size={16} aria-hidden />
              <Anchor
                component="button"
                type="button"
                size="sm"
                onClick={() => void download(file)}
                disabled={pending === file.id}
                aria-label={t('forum.download', { name: file.filename })}
              >
                {file.filename}
              </Anchor>
              <Text size="xs" c="dimmed">
                {format.bytes(file.size)}
              </Text>
            </Group>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
