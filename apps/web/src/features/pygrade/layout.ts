import { useMediaQuery } from '@mantine/hooks';

/**
 * Below this width the console's tables become cards: a job has eight facts, which do not fit a
 * phone's width as columns, and a table scrolled sideways hides half of each row.
 */
export const CARDS_QUERY = '(max-width: 62em)';

/** True where the lists show as cards; read at once (not after a first render as a table). */
export function useShowsCards(): boolean {
  return useMediaQuery(CARDS_QUERY, false, { getInitialValueInEffect: false });
}
