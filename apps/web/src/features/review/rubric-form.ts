import type { Rubric, RubricItem, RubricSave } from '@kadai/contracts';

/** An item as the editor holds it: `key` names it in the list, `id` is null until it is saved. */
export interface DraftItem {
  key: string;
  id: number | null;
  group: string;
  title: string;
  description: string;
  points: number;
}

export interface RubricDraft {
  autograde_weight: number;
  rubric_weight: number;
  rubric_max: number;
  items: DraftItem[];
}

let nextKey = 0;
export function newItemKey(): string {
  nextKey += 1;
  return `new-${nextKey}`;
}

export function draftOf(rubric: Rubric): RubricDraft {
  return {
    ...rubric.settings,
    items: [...rubric.items]
      .sort((a, b) => a.position - b.position)
      .map((item) => ({
        key: `item-${item.id}`,
        id: item.id,
        group: item.group,
        title: item.title,
        description: item.description,
        points: item.points,
      })),
  };
}

export function blankItem(group: string): DraftItem {
  return { key: newItemKey(), id: null, group, title: '', description: '', points: 0 };
}

/** The list with the item at `index` moved one place up (-1) or down (1). */
export function moveItem<T>(items: readonly T[], index: number, step: -1 | 1): T[] {
  const target = index + step;
  if (target < 0 || target >= items.length) return [...items];
  const moved = [...items];
  const [item] = moved.splice(index, 1);
  if (item !== undefined) moved.splice(target, 0, item);
  return moved;
}

/**
 * The graded reviews a save would recompute, at most: the uses of every saved item whose points change
 * or that is removed. A review ticking two such items counts twice, so this is an upper bound.
 */
export function usesAffected(saved: readonly RubricItem[], draft: RubricDraft): number {
  const kept = new Map(draft.items.filter((item) => item.id !== null).map((item) => [item.id, item]));
  return saved.reduce((sum, item) => {
    const now = kept.get(item.id);
    const changed = now === undefined || now.points !== item.points;
    return changed ? sum + item.uses : sum;
  }, 0);
}

export function rubricSaveBody(draft: RubricDraft): RubricSave {
  return {
    settings: {
      autograde_weight: draft.autograde_weight,
      rubric_weight: draft.rubric_weight,
      rubric_max: draft.rubric_max,
    },
    items: draft.items.map((item) => ({
      ...(item.id === null ? {} : { id: item.id }),
      group: item.group.trim(),
      title: item.title.trim(),
      description: item.description,
      points: item.points,
    })),
  };
}

/** Runs of consecutive items sharing a group title, as the editor and the grading panel show them. */
export function groupRuns<T extends { group: string }>(items: readonly T[]): { group: string; items: T[] }[] {
  const runs: { group: string; items: T[] }[] = [];
  for (const item of items) {
    const last = runs.at(-1);
    if (last && last.group === item.group) last.items.push(item);
    else runs.push({ group: item.group, items: [item] });
  }
  return runs;
}
