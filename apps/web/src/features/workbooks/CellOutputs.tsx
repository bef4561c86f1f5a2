import type { MimeBundle, NotebookOutput } from '@kadai/contracts';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { chooseRepresentation, mergeStreams, tracebackText } from './outputs.ts';
import classes from './Workbook.module.css';

/** A code cell's outputs in order: streams, results (figure, table or text) and errors. */
export function CellOutputs({
  outputs,
  cellNumber,
}: {
  outputs: readonly NotebookOutput[];
  cellNumber: number;
}) {
  const { t } = useTranslation();
  const shown = useMemo(() => mergeStreams(outputs), [outputs]);
  if (shown.length === 0) return null;
  return (
    <div className={classes.outputs} role="group" aria-label={t('workbook.output.label', { n: cellNumber })}>
      {shown.map((output, index) => (
        // Outputs have no ids; a cell's list is replaced whole on each run, so the position is stable.
        <Output key={index} output={output} cellNumber={cellNumber} />
      ))}
    </div>
  );
}

function Output({ output, cellNumber }: { output: NotebookOutput; cellNumber: number }) {
  switch (output.output_type) {
    case 'stream':
      return (
        <pre
          className={output.name === 'stderr' ? `${classes.stream} ${classes.stderr}` : classes.stream}
          tabIndex={0}
          data-stream={output.name}
        >
          {output.text}
        </pre>
      );
    case 'error':
      return <ErrorOutput ename={output.ename} evalue={output.evalue} traceback={output.traceback} />;
    case 'execute_result':
    case 'display_data':
      return <RichOutput bundle={output.data} cellNumber={cellNumber} />;
  }
}

function ErrorOutput({
  ename,
  evalue,
  traceback,
}: {
  ename: string;
  evalue: string;
  traceback: readonly string[];
}) {
  const text = useMemo(() => tracebackText(traceback), [traceback]);
  return (
    <div>
      <div className={classes.errorName}>{evalue ? `${ename}: ${evalue}` : ename}</div>
      {text.trim() ? (
        <pre className={classes.traceback} tabIndex={0}>
          {text}
        </pre>
      ) : null}
    </div>
  );
}

function RichOutput({ bundle, cellNumber }: { bundle: MimeBundle; cellNumber: number }) {
  const { t } = useTranslation();
  const shown = useMemo(() => chooseRepresentation(bundle), [bundle]);
  switch (shown.kind) {
    case 'png':
      return (
        <img
          className={classes.image}
          src={`data:image/png;base64,${shown.base64}`}
          alt={t('workbook.output.image', { n: cellNumber })}
        />
      );
    case 'html':
      return (
        // Sanitised by DOMPurify in chooseRepresentation.
        <div className={classes.html} tabIndex={0} dangerouslySetInnerHTML={{ __html: shown.html }} />
      );
    case 'text':
      return (
        <pre className={classes.text} tabIndex={0}>
          {shown.text}
        </pre>
      );
    case 'empty':
      return null;
  }
}
