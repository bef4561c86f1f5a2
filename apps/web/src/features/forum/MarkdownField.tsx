import { Tabs, Text, Textarea } from '@mantine/core';
import { MAX_FORUM_CONTENT } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Markdown } from '../../ui/Markdown.tsx';
import classes from './Forum.module.css';

/**
 * Markdown with Write and Preview tabs. The preview goes through the same renderer and sanitiser as the
 * published post, so what the writer sees is what readers get.
 */
export function MarkdownField({
  label,
  value,
  onChange,
  error,
  autoFocus,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | null;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<string | null>('write');
  return (
    <Tabs value={tab} onChange={setTab} variant="outline">
      <Tabs.List>
        <Tabs.Tab value="write">{t('forum.editor.write')}</Tabs.Tab>
        <Tabs.Tab value="preview">{t('forum.editor.preview')}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="write" pt="xs">
        <Textarea
          label={label}
          description={t('forum.editor.markdownHint')}
          autosize
          minRows={6}
          maxRows={20}
          maxLength={MAX_FORUM_CONTENT}
          value={value}
          error={error}
          data-autofocus={autoFocus || undefined}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
        <Text size="xs" c="dimmed" ta="right">
          {value.length} / {MAX_FORUM_CONTENT}
        </Text>
      </Tabs.Panel>
      <Tabs.Panel value="preview" pt="xs">
        <div className={classes.preview} aria-label={t('forum.editor.preview')} role="region">
          {value.trim() ? (
            <Markdown source={value} />
          ) : (
            <Text size="sm" c="dimmed">
              {t('forum.editor.nothingToPreview')}
            </Text>
          )}
        </div>
        {error && tab === 'preview' ? (
          <Text size="sm" c="red" role="alert" mt={4}>
            {error}
          </Text>
        ) : null}
      </Tabs.Panel>
    </Tabs>
  );
}
