import { useMediaQuery } from '@mantine/hooks';

/**
 * Phone width (under 576 px, Mantine's `sm`): lists turn into cards that show title, due date, status
 * and score without sideways scrolling (docs/web.md, "Phones"). Read at once, not after a first render
 * as a table, so a phone never lays the table out.
 */
export const PHONE_QUERY = '(max-width: 35.99em)';

export function useIsPhone(): boolean {
  return useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
}
