import type { LtiContext } from '@kadai/contracts';

/** "Python I (CS101)": an LMS course's title with its short label, when it has one. */
export function contextName(context: Pick<LtiContext, 'title' | 'label'>): string {
  return context.label && context.label !== context.title
    ? `${context.title} (${context.label})`
    : context.title;
}
