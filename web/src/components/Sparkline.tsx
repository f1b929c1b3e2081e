import { sparkPath, sparkPoints } from './sparkline';

/**
 * A small line chart without a chart library: `values` oldest first, `null` a gap; each point may
 * have its own colour (e.g. a health check's status). The picture is described by `label` for
 * screen readers, so give it the numbers that matter.
 */
export function Sparkline({
  values,
  label,
  colors,
  width = 240,
  height = 48,
}: {
  values: readonly (number | null)[];
  label: string;
  /** A colour per value (CSS), same order as `values`. */
  colors?: readonly string[];
  width?: number;
  height?: number;
}) {
  const points = sparkPoints(values, width, height, 4);
  return (
    <svg
      role="img"
      aria-label={label}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      style={{ maxWidth: '100%' }}
    >
      <path d={sparkPath(points)} fill="none" stroke="var(--mantine-color-dimmed)" strokeWidth={1.5} />
      {points.map((point) => (
        <circle
          key={point.index}
          cx={point.x}
          cy={point.y}
          r={2.5}
          fill={colors?.[point.index] ?? 'var(--mantine-color-blue-filled)'}
        />
      ))}
    </svg>
  );
}
