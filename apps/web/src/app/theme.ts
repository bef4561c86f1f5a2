import { Modal, createTheme, type CSSVariablesResolver, type MenuProps } from '@mantine/core';

/**
 * Mantine's defaults put blue-6 text and gray-6 "dimmed" text on white, both under the 4.5:1 contrast
 * WCAG asks for; the shades below pass in both colour schemes. `closeLabel` names the close buttons of
 * dialogs in the reader's language.
 */
export function createAppTheme(closeLabel: string) {
  return createTheme({
    primaryColor: 'blue',
    primaryShade: { light: 8, dark: 8 },
    defaultRadius: 'md',
    fontFamily:
      'system-ui, -apple-system, "Segoe UI", Roboto, "Hiragino Sans", "Noto Sans CJK JP", "Noto Sans JP", Meiryo, sans-serif',
    headings: { fontFamily: 'inherit' },
    cursorType: 'pointer',
    // Readers who ask their system for less motion get dialogs and menus without transitions.
    respectReducedMotion: true,
    components: {
      Modal: Modal.extend({
        defaultProps: {
          closeButtonProps: { 'aria-label': closeLabel },
          // A dialog's <header> is not the page's banner landmark (axe: landmark-no-duplicate-banner).
          attributes: { header: { role: 'none' } },
        },
      }),
      // Dropdowns stay inside the landmark of the control that opens them (axe: region).
      // Without the focus placeholder the menu holds only menu items (axe: aria-required-children).
      // (A plain object, not Menu.extend: the header's menus load after the first screen, and importing
      // Menu here would bring its code, with @floating-ui, back into the shell.)
      // A title with a long unbroken word (a file name, an id) wraps rather than widen the page past a
      // phone's width or an LMS's frame (a plain object, like Menu below, so Title's code stays out).
      Title: { styles: { root: { overflowWrap: 'anywhere' } } },
      Menu: {
        defaultProps: {
          withinPortal: false,
          withInitialFocusPlaceholder: false,
        } satisfies Partial<MenuProps>,
      },
    },
  });
}

export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-anchor': t.colors.blue[8],
    '--mantine-color-dimmed': t.colors.gray[7],
    '--mantine-color-error': t.colors.red[8],
    '--mantine-color-placeholder': t.colors.gray[6],
    // Text of "light" badges and alerts sits on a tint of its own colour: shade 9 is not dark enough.
    '--mantine-color-blue-light-color': t.colors.blue[9],
    '--mantine-color-red-light-color': '#a61e1e',
    '--mantine-color-red-outline': t.colors.red[9],
    '--mantine-color-red-text': t.colors.red[9],
    '--mantine-color-green-light-color': '#1f6b2c',
    '--mantine-color-teal-light-color': '#065f46',
    '--mantine-color-grape-light-color': '#7a1f8f',
    '--mantine-color-orange-light-color': '#9a3412',
    '--mantine-color-gray-light-color': t.colors.gray[8],
  },
  dark: {
    '--mantine-color-dimmed': t.colors.dark[1],
    '--mantine-color-error': t.colors.red[5],
    '--mantine-color-placeholder': t.colors.dark[2],
  },
});
