import { RangeSetBuilder, type Extension } from '@codemirror/state';
import { Decoration, EditorView, lineNumbers, type DecorationSet } from '@codemirror/view';
import { selectionLines, type LineRange } from './line-range.ts';

/** What the code view tells the page: a line number clicked, or the lines a text selection covers. */
export interface LineChoosingHandlers {
  onClickLine: (line: number, extend: boolean) => void;
  onSelectLines: (range: LineRange) => void;
}

const chosenLine = Decoration.line({ class: 'cm-review-chosen' });
const commentedLine = Decoration.line({ class: 'cm-review-commented' });

const theme = EditorView.theme({
  '.cm-lineNumbers .cm-gutterElement': { cursor: 'pointer' },
  '.cm-review-commented': { backgroundColor: 'var(--mantine-color-yellow-light)' },
  '.cm-review-chosen': {
    backgroundColor: 'var(--mantine-color-blue-light)',
    boxShadow: 'inset 3px 0 0 var(--mantine-color-blue-filled)',
  },
});

function decorations(doc: EditorView['state']['doc'], chosen: LineRange | null, commented: LineRange[]) {
  const builder = new RangeSetBuilder<Decoration>();
  const last = doc.lines;
  for (let number = 1; number <= last; number += 1) {
    const isChosen = chosen !== null && number >= chosen.start && number <= chosen.end;
    const isCommented = commented.some((range) => number >= range.start && number <= range.end);
    if (isChosen || isCommented) {
      const from = doc.line(number).from;
      builder.add(from, from, isChosen ? chosenLine : commentedLine);
    }
  }
  return builder.finish();
}

/**
 * A read-only code view's line choosing: a click on a line number chooses that line (shift extends
 * from the line first clicked), a text selection (mouse or keyboard) chooses the lines it covers; the
 * chosen lines and those with comments are tinted.
 */
export function lineChoosing(
  handlers: LineChoosingHandlers,
  chosen: LineRange | null,
  commented: LineRange[],
): Extension[] {
  return [
    lineNumbers({
      domEventHandlers: {
        mousedown: (view, block, event) => {
          const line = view.state.doc.lineAt(block.from).number;
          handlers.onClickLine(line, event instanceof MouseEvent && event.shiftKey);
          return true;
        },
      },
    }),
    EditorView.updateListener.of((update) => {
      if (!update.selectionSet) return;
      const { from, to } = update.state.selection.main;
      const doc = update.state.doc;
      const start = doc.lineAt(from);
      const end = doc.lineAt(to);
      const range = selectionLines(
        { line: start.number, column: from - start.from },
        { line: end.number, column: to - end.from },
      );
      if (range) handlers.onSelectLines(range);
    }),
    EditorView.decorations.of((view): DecorationSet => decorations(view.state.doc, chosen, commented)),
    theme,
  ];
}
