// The chunk HintTooltip loads: Mantine's Tooltip, with @floating-ui.
export { Tooltip as default } from '@mantine/core';
