import { Typography } from '@mantine/core';
import { useMemo } from 'react';
import classes from './Markdown.module.css';
import { renderMarkdown } from './markdown.ts';

/** Markdown rendered to sanitised HTML (see markdown.ts). */
export function Markdown({ source }: { source: string }) {
  const html = useMemo(() => renderMarkdown(source), [source]);
  return (
    <Typography className={classes.markdown}>
      {/* Sanitised by DOMPurify in renderMarkdown. */}
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
