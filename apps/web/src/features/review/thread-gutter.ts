import { RangeSetBuilder, type Extension } from '@codemirror/state';
import { EditorView, GutterMarker, gutter } from '@codemirror/view';

/** A thread's id and the last line it is on: where its marker sits. */
export interface ThreadMark {
  id: number;
  line: number;
}

/** The DOM id of a thread in the list under the code, which a marker moves the focus to. */
export function threadElementId(id: number): string {
  return `review-thread-${id}`;
}

class ThreadMarker extends GutterMarker {
  constructor(
    readonly ids: readonly number[],
    readonly title: string,
  ) {
    super();
  }
  override eq(other: GutterMarker): boolean {
    return (
      other instanceof ThreadMarker && other.ids.join() === this.ids.join() && other.title === this.title
    );
  }
  override toDOM(): Node {
    const dot = document.createElement('span');
    dot.className = 'cm-review-thread-marker';
    dot.title = this.title;
    dot.textContent = '●';
    // The list under the code is the way in by keyboard; the dot is a shortcut for the pointer.
    dot.setAttribute('aria-hidden', 'true');
    return dot;
  }
}

const theme = EditorView.theme({
  '.cm-review-threads .cm-gutterElement': { padding: '0 4px', cursor: 'pointer' },
  '.cm-review-thread-marker': { color: 'var(--mantine-color-yellow-filled)', fontSize: '0.75em' },
});

/**
 * A gutter with a dot on the last line of each thread; a click on it moves the focus to the thread in
 * the list under the code (scrolling it into view).
 */
export function threadGutter(marks: readonly ThreadMark[], title: string): Extension[] {
  const byLine = new Map<number, number[]>();
  for (const mark of marks) byLine.set(mark.line, [...(byLine.get(mark.line) ?? []), mark.id]);
  return [
    gutter({
      class: 'cm-review-threads',
      markers: (view) => {
        const builder = new RangeSetBuilder<GutterMarker>();
        const doc = view.state.doc;
        for (const line of [...byLine.keys()].sort((a, b) => a - b)) {
          if (line < 1 || line > doc.lines) continue;
          const from = doc.line(line).from;
          builder.add(from, from, new ThreadMarker(byLine.get(line) ?? [], title));
        }
        return builder.finish();
      },
      domEventHandlers: {
        mousedown: (view, block) => {
          const ids = byLine.get(view.state.doc.lineAt(block.from).number);
          const target = ids?.[0] === undefined ? null : document.getElementById(threadElementId(ids[0]));
          if (!target) return false;
          target.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
          target.focus({ preventScroll: true });
          return true;
        },
      },
    }),
    theme,
  ];
}
