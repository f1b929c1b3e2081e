import { type CSSVariablesResolver, createTheme } from '@mantine/core';

// Darker shades than the defaults, so white text on filled buttons and dimmed text on the page
// keep WCAG AA contrast (axe checks it on every page in the browser tests).
export const theme = createTheme({
  primaryColor: 'blue',
  primaryShade: { light: 8, dark: 8 },
  autoContrast: true,
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  headings: {
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  },
});

export const cssVariablesResolver: CSSVariablesResolver = (resolved) => ({
  variables: {},
  light: { '--mantine-color-dimmed': resolved.colors.gray[7] },
  dark: { '--mantine-color-dimmed': resolved.colors.dark[1] },
});
