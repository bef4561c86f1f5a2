import { Typography } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { isPythonHighlightingLoaded, loadPythonHighlighting, mayHavePythonFence } from './code-highlight.ts';
import classes from './Markdown.module.css';
import { renderMarkdown } from './markdown.ts';
import { trackedImport } from './lazyComponent.ts';

/**
 * Markdown rendered to sanitised HTML (see markdown.ts). Python fences show plain at first and are
 * highlighted once the parser has loaded (it is loaded only where such a fence shows).
 */
export function Markdown({ source }: { source: string }) {
  const needsPython = useMemo(() => mayHavePythonFence(source), [source]);
  const [pythonLoaded, setPythonLoaded] = useState(isPythonHighlightingLoaded);
  useEffect(() => {
    if (!needsPython || pythonLoaded) return undefined;
    let current = true;
    trackedImport(loadPythonHighlighting).then(
      () => {
        if (current) setPythonLoaded(true);
      },
      // Offline or a new deployment: the code stays plain.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [needsPython, pythonLoaded]);
  const html = useMemo(() => renderMarkdown(source, { python: pythonLoaded }), [source, pythonLoaded]);
  return (
    <Typography className={classes.markdown}>
      {/* Sanitised by DOMPurify in renderMarkdown. */}
      <div dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
