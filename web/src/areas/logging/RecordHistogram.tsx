import { Stack, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { type PointerEvent, useState } from 'react';
import { api, call } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { bucketAt, bucketsRange, countTicks, timeTicks } from './chart-scale';
import { levelColour } from './level-colours';
import { LOGGING_KEY } from './queries';
import classes from './RecordHistogram.module.css';
import { LEVELS, type SearchQuery } from './record-filters';
import { recordTime, zoneOffsetMinutes } from './record-time';

/**
 * Most severe first: bottom to top in a bar (the levels that matter most sit on the axis, where
 * they are easiest to read), and first in the hover and the legend.
 */
const STACK = [...LEVELS].reverse();
/** Room each time label needs, in pixels. */
const TICK_ROOM_PX = 90;

const widthInWords = (seconds: number) => {
  if (seconds % 86_400 === 0) return `${seconds / 86_400}-day`;
  if (seconds % 3600 === 0) return `${seconds / 3600}-hour`;
  if (seconds % 60 === 0) return `${seconds / 60}-minute`;
  return `${seconds}-second`;
};
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
const clock = (iso: string) => {
  const { date, time } = recordTime(iso);
  return `${date} ${time.slice(0, 8)}`;
};

type Histogram = NonNullable<Awaited<ReturnType<typeof fetchHistogram>>>['data'];
const fetchHistogram = (environmentId: string, query: SearchQuery) =>
  call(
    api.GET('/api/logging/environments/{id}/histogram', { params: { path: { id: environmentId }, query } }),
  );

/** The bars, stacked by level, scaled to `top`, in a box N bars wide (stretched to the plot). */
function Bars({ histogram, top }: { histogram: Histogram; top: number }) {
  const { buckets } = histogram;
  return (
    <svg viewBox={`0 0 ${buckets.length} ${top}`} preserveAspectRatio="none" aria-hidden="true">
      {buckets.map((bucket, index) => {
        let y = top;
        return STACK.map((level) => {
          const count = bucket.levels[level] ?? 0;
          if (count === 0) return null;
          y -= count;
          return (
            <rect
              key={`${bucket.start}-${level}`}
              x={index + 0.08}
              width={0.84}
              y={y}
              height={count}
              fill={`var(--mantine-color-${levelColour(level)}-filled)`}
            />
          );
        });
      })}
    </svg>
  );
}

/** The hovered bucket in words: its range, its count, and its count per level. */
function HoverNote({ histogram, index }: { histogram: Histogram; index: number }) {
  const bucket = histogram.buckets[index]!;
  const { from, to } = bucketsRange([bucket.start], histogram.intervalSeconds, 0, 0);
  const share = (index + 0.5) / histogram.buckets.length;
  const side = share < 0.5 ? { left: `${share * 100}%` } : { right: `${(1 - share) * 100}%` };
  const levels = STACK.filter((level) => bucket.levels[level]);
  return (
    <div className={classes.hover} style={side} role="tooltip">
      <div>
        {clock(from)} – {clock(to).slice(11)}
      </div>
      <strong>{plural(bucket.count, 'record')}</strong>
      {levels.length > 0 && `: ${levels.map((level) => `${bucket.levels[level]} ${level}`).join(', ')}`}
    </div>
  );
}

/**
 * Records per time bucket of the search as a chart: bars stacked by level, a counts axis and a
 * time axis. Hovering a bar tells its range and counts; dragging across bars (or clicking one)
 * searches that range.
 */
export function RecordHistogram({
  environmentId,
  query,
  onRange,
}: {
  environmentId: string;
  query: SearchQuery;
  onRange: (range: { from: string; to: string }) => void;
}) {
  const histogram = useQuery({
    queryKey: [...LOGGING_KEY, 'histogram', environmentId, query],
    queryFn: () => fetchHistogram(environmentId, query),
  });
  const plot = useElementSize();
  const [hovered, setHovered] = useState<number>();
  const [drag, setDrag] = useState<{ first: number; last: number }>();
  if (histogram.error) return <ErrorNotice error={histogram.error} />;
  if (!histogram.data) return null;
  const data = histogram.data.data;
  const { buckets, intervalSeconds } = data;
  if (buckets.length === 0) return null;
  const starts = buckets.map((bucket) => bucket.start);
  const total = buckets.reduce((sum, bucket) => sum + bucket.count, 0);
  const { top, ticks } = countTicks(Math.max(...buckets.map((bucket) => bucket.count)));
  const domainFrom = Date.parse(starts[0]!);
  const domainTo = Date.parse(starts[starts.length - 1]!) + intervalSeconds * 1000;
  const share = (at: number) => `${((at - domainFrom) / (domainTo - domainFrom)) * 100}%`;
  const offset = zoneOffsetMinutes(new Date(domainFrom));
  // A label centred on its tick would stick out of the chart near either end: those are left out.
  const fits = (at: number) => {
    const x = ((at - domainFrom) / (domainTo - domainFrom)) * plot.width;
    return x > TICK_ROOM_PX / 4 && x < plot.width - TICK_ROOM_PX / 4;
  };
  const times = timeTicks(domainFrom, domainTo, Math.max(2, Math.floor(plot.width / TICK_ROOM_PX)), offset);
  const indexAt = (event: PointerEvent<HTMLDivElement>) =>
    bucketAt(event.clientX - event.currentTarget.getBoundingClientRect().left, plot.width, buckets.length);
  const levelsShown = STACK.filter((level) => buckets.some((bucket) => bucket.levels[level]));
  const selected = drag && {
    left: `${(Math.min(drag.first, drag.last) / buckets.length) * 100}%`,
    width: `${((Math.abs(drag.last - drag.first) + 1) / buckets.length) * 100}%`,
  };
  const summary = `${plural(total, 'record')} in this range, in ${widthInWords(intervalSeconds)} buckets`;
  return (
    <Stack gap={4}>
      <div className={classes.chart}>
        <div className={classes.counts} aria-hidden="true">
          {ticks.map((value) => (
            <span key={value} style={{ bottom: `${(value / top) * 100}%` }}>
              {value}
            </span>
          ))}
        </div>
        <div
          ref={plot.ref}
          className={classes.plot}
          role="img"
          aria-label={`${summary}. Drag across the bars to search that range.`}
          onPointerMove={(event) => {
            const index = indexAt(event);
            setHovered(index);
            if (drag) setDrag({ ...drag, last: index });
          }}
          onPointerLeave={() => setHovered(undefined)}
          onPointerDown={(event) => {
            event.currentTarget.setPointerCapture(event.pointerId);
            const index = indexAt(event);
            setDrag({ first: index, last: index });
          }}
          onPointerUp={() => {
            if (drag) onRange(bucketsRange(starts, intervalSeconds, drag.first, drag.last));
            setDrag(undefined);
          }}
          onPointerCancel={() => setDrag(undefined)}
        >
          {ticks.slice(1).map((value) => (
            <div key={value} className={classes.gridLine} style={{ bottom: `${(value / top) * 100}%` }} />
          ))}
          <Bars histogram={data} top={top} />
          {selected && <div className={classes.selection} style={selected} />}
          {hovered !== undefined && !drag && <HoverNote histogram={data} index={hovered} />}
        </div>
        <div className={classes.times} aria-hidden="true">
          {times
            .filter((tick) => fits(tick.at))
            .map((tick) => (
              <span key={tick.at} style={{ left: share(tick.at) }}>
                {tick.label}
              </span>
            ))}
        </div>
      </div>
      <div className={classes.legend}>
        <Text size="xs" c="dimmed">
          {summary}
        </Text>
        {levelsShown.map((level) => (
          <Text key={level} size="xs" c="dimmed">
            <span
              className={classes.swatch}
              style={{ background: `var(--mantine-color-${levelColour(level)}-filled)` }}
            />
            {level}
          </Text>
        ))}
      </div>
    </Stack>
  );
}
