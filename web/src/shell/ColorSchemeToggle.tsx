import { ActionIcon, useComputedColorScheme, useMantineColorScheme } from '@mantine/core';

/** Light or dark; the choice is kept in the browser. */
export function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const scheme = useComputedColorScheme('light');
  const next = scheme === 'dark' ? 'light' : 'dark';
  return (
    <ActionIcon
      variant="default"
      size="lg"
      aria-label={`Switch to ${next} mode`}
      title={`Switch to ${next} mode`}
      onClick={() => setColorScheme(next)}
    >
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" fill="currentColor">
        {scheme === 'dark' ? (
          <path
            d="M12 17a5 5 0 1 0 0-10 5 5 0 0 0 0 10Zm0-15h0v3h0V2Zm0 17v3h0v-3ZM2 12h3v0H2Zm17 0h3v0h-3ZM4.9 4.9l2.1 2.1M17 17l2.1 2.1M4.9 19.1 7 17M17 7l2.1-2.1"
            stroke="currentColor"
            strokeWidth="2"
          />
        ) : (
          <path d="M21 12.8A9 9 0 1 1 11.2 3a7 7 0 0 0 9.8 9.8Z" />
        )}
      </svg>
    </ActionIcon>
  );
}
