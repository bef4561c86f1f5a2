import { Skeleton } from '@mantine/core';
import {
  Suspense,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentType,
  type RefObject,
} from 'react';
import type { CarriedSelection, CodeEditorProps, CodeMirrorEditorProps } from './code-editor-props.ts';
import classes from './CodeEditor.module.css';
import { lazyComponent, trackedImport } from './lazyComponent.ts';

export type { CarriedSelection, CodeEditorProps, CodeMirrorEditorProps };

type CodeMirrorModule = { default: ComponentType<CodeMirrorEditorProps> };

// CodeMirror is about 100 kB compressed: only pages that show code download it, when they first do.
const loadCodeMirror = () => import('./CodeMirrorEditor.tsx');
const CodeMirrorEditor = lazyComponent(loadCodeMirror);
/** Once loaded, every later editor is CodeMirror at once. */
let loaded: CodeMirrorModule | null = null;

/**
 * A code editor (CodeMirror 6, Python). Read-only code loads it on demand. An editable editor starts
 * as a text area drawn like it, which already takes typing, and becomes CodeMirror the first time a
 * pointer comes over it or it gets focus: a page that only might be edited (an assignment, before the
 * student starts) does not download and start CodeMirror while it first loads. What was typed and the
 * selection carry over.
 */
export function CodeEditor(props: CodeEditorProps) {
  if (props.readOnly) {
    return (
      <Suspense fallback={<Skeleton height={props.minHeight ?? 160} radius="md" aria-busy="true" />}>
        <CodeMirrorEditor {...props} />
      </Suspense>
    );
  }
  return <EditableCodeEditor {...props} />;
}

function EditableCodeEditor(props: CodeEditorProps) {
  const [editor, setEditor] = useState<CodeMirrorModule | null>(loaded);
  const [wanted, setWanted] = useState(false);
  const carry = useRef<CarriedSelection | undefined>(undefined);

  useEffect(() => {
    if (!wanted || editor) return undefined;
    let current = true;
    trackedImport(loadCodeMirror).then(
      (module) => {
        loaded = module;
        if (current) setEditor(module);
      },
      // Offline or replaced by a new deployment: the text area goes on working as the editor.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [wanted, editor]);

  if (editor) return <editor.default {...props} carry={carry} />;
  return <StandIn {...props} carry={carry} onWake={() => setWanted(true)} />;
}

function StandIn({
  value,
  onChange,
  label,
  minHeight = 160,
  placeholder,
  describedBy,
  carry,
  onWake,
}: CodeEditorProps & { carry: RefObject<CarriedSelection | undefined>; onWake: () => void }) {
  const area = useRef<HTMLTextAreaElement>(null);
  // As CodeMirror replaces it (in the same commit, before the text area leaves the page), the focus
  // and selection of this moment are handed over: keys typed while CodeMirror loaded are kept.
  useLayoutEffect(() => {
    const textArea = area.current;
    return () => {
      if (textArea && document.activeElement === textArea) {
        carry.current = { anchor: textArea.selectionStart, head: textArea.selectionEnd };
      }
    };
  }, [carry]);
  return (
    <textarea
      ref={area}
      className={classes.placeholder}
      style={{ height: minHeight + 10 }}
      value={value}
      onChange={(event) => onChange?.(event.currentTarget.value)}
      aria-label={label}
      aria-describedby={describedBy}
      placeholder={placeholder}
      spellCheck={false}
      autoCapitalize="off"
      autoComplete="off"
      data-code-placeholder=""
      onFocus={onWake}
      onPointerEnter={onWake}
      onTouchStart={onWake}
    />
  );
}
