import { Badge, type CSSVariablesResolver, createTheme, darken, Modal, Notification } from '@mantine/core';

const SYSTEM_FONTS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

// Contrast (WCAG AA, which axe checks on every page in the browser tests): filled buttons and
// badges pick black or white text by the background's luminance (the threshold keeps either at
// 4.5:1 or more), and in the light scheme the text of "light" variants (alerts, light badges),
// dimmed text and the error under a field are darker than Mantine's defaults.
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  autoContrast: true,
  luminanceThreshold: 0.18,
  fontFamily: SYSTEM_FONTS,
  headings: { fontFamily: SYSTEM_FONTS },
  components: {
    // Close buttons of dialogs and toasts need a name for screen readers.
    Modal: Modal.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Dismiss' } } }),
    // A badge (status, outcome, level, expiry) is never cut to "IN…": it keeps its width in a narrow
    // column, which grows (or scrolls in its table) instead.
    Badge: Badge.extend({
      styles: {
        root: { flexShrink: 0, maxWidth: 'none', overflow: 'visible' },
        label: { overflow: 'visible', textOverflow: 'clip' },
      },
    }),
  },
});

export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': resolved.colors.gray[7],
    '--mantine-color-error': resolved.colors.red[9],
    '--mantine-color-anchor': resolved.colors.blue[9],
    ...Object.fromEntries(
      Object.entries(resolved.colors).map(([name, shades]) => [
        `--mantine-color-${name}-light-color`,
        darken(shades[9], 0.35),
      ]),
    ),
  },
  dark: { '--mantine-color-dimmed': resolved.colors.dark[1] },
});
