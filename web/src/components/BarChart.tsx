import { Box, Text } from '@mantine/core';

export interface Bar {
  /** What the bar counts, e.g. its bucket's start time; shown as its tooltip. */
  label: string;
  value: number;
}

/**
 * A small bar chart drawn as SVG (no chart library in the bundle): one bar per value, scaled to the
 * largest. Screen readers get `summary` as the image's name.
 */
export function BarChart({
  bars,
  summary,
  height = 80,
}: {
  bars: readonly Bar[];
  /** The chart in words, e.g. `42 records in the last 24 hours, at most 9 per hour`. */
  summary: string;
  height?: number;
}) {
  const largest = Math.max(1, ...bars.map((bar) => bar.value));
  const width = Math.max(1, bars.length);
  return (
    <Box>
      <svg
        role="img"
        aria-label={summary}
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        width="100%"
        height={height}
        style={{ display: 'block' }}
      >
        {bars.map((bar, index) => {
          const barHeight = (bar.value / largest) * height;
          return (
            <rect
              key={bar.label}
              x={index + 0.1}
              y={height - barHeight}
              width={0.8}
              height={barHeight}
              fill="var(--mantine-primary-color-filled)"
            >
              <title>{`${bar.label}: ${bar.value}`}</title>
            </rect>
          );
        })}
      </svg>
      <Text size="xs" c="dimmed">
        {summary}
      </Text>
    </Box>
  );
}
