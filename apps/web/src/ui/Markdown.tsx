import { Typography } from '@mantine/core';
import { useEffect, useMemo, useRef } from 'react';
import { loadPythonHighlighting, mayHavePythonFence } from './code-highlight.ts';
import classes from './Markdown.module.css';
import { highlightPythonFences, renderMarkdown } from './markdown.ts';
import { trackedImport } from './lazyComponent.ts';

/**
 * Markdown rendered to sanitised HTML (see markdown.ts). Python fences show plain at first and are
 * highlighted in place once the parser has loaded (it is loaded only where such a fence shows); the
 * text around them is not drawn again. React leaves the highlighted blocks alone: it sets the HTML
 * again only when the source changes, and the effect then highlights the new blocks.
 */
export function Markdown({ source }: { source: string }) {
  const container = useRef<HTMLDivElement>(null);
  const needsPython = useMemo(() => mayHavePythonFence(source), [source]);
  // Highlighted from the start when the parser is already there (a page opened after another).
  const html = useMemo(() => renderMarkdown(source), [source]);
  useEffect(() => {
    if (!needsPython) return undefined;
    let current = true;
    trackedImport(loadPythonHighlighting).then(
      () => {
        if (current && container.current) highlightPythonFences(container.current);
      },
      // Offline or a new deployment: the code stays plain.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [html, needsPython]);
  return (
    <Typography className={classes.markdown}>
      {/* Sanitised by DOMPurify in renderMarkdown, and each highlighted block in highlightPythonFences. */}
      <div ref={container} dangerouslySetInnerHTML={{ __html: html }} />
    </Typography>
  );
}
