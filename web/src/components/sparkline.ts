/** Where each value of a sparkline goes: x across the width, y from the bottom (the largest on top). */
export interface SparkPoint {
  x: number;
  y: number;
  index: number;
}

/**
 * The points of a small line chart of `values` (oldest first) in a `width`×`height` box with `pad`
 * pixels kept free at the edges; a `null` (no measure, e.g. a refused probe) has no point and breaks
 * the line there. The scale starts at 0, so equal values draw a flat line at their height.
 */
export function sparkPoints(
  values: readonly (number | null)[],
  width: number,
  height: number,
  pad = 2,
): SparkPoint[] {
  const max = Math.max(0, ...values.filter((value): value is number => value !== null));
  const step = values.length > 1 ? (width - 2 * pad) / (values.length - 1) : 0;
  return values.flatMap((value, index) =>
    value === null
      ? []
      : [
          {
            x: pad + (values.length > 1 ? index * step : (width - 2 * pad) / 2),
            y: max === 0 ? height - pad : height - pad - (value / max) * (height - 2 * pad),
            index,
          },
        ],
  );
}

/** The `d` of an SVG path through the points, starting a new segment after each gap. */
export function sparkPath(points: readonly SparkPoint[]): string {
  return points
    .map((point, at) => {
      const joined = at > 0 && points[at - 1]!.index === point.index - 1;
      return `${joined ? 'L' : 'M'}${point.x.toFixed(1)} ${point.y.toFixed(1)}`;
    })
    .join(' ');
}
