import fs from 'node:fs';

/** Linux counts the CPU times of /proc/<pid>/stat in clock ticks of 1/100 s. */
const TICKS_PER_SECOND = 100;

/** What the benches read of a process's /proc/<pid>/stat. */
interface ProcStat {
  command: string;
  parentPid: string;
  /** User + system time of the process itself. */
  cpuSeconds: number;
  /** User + system time of its children that exited and were waited for. */
  reapedChildrenCpuSeconds: number;
}

/** The process's stat, or nothing once it has exited. */
function readProcStat(pid: number | string): ProcStat | undefined {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command sits in parentheses and may itself contain spaces or parentheses.
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  const seconds = (a: number, b: number) => (Number(fields[a]) + Number(fields[b])) / TICKS_PER_SECOND;
  return {
    command: stat.slice(stat.indexOf('(') + 1, close),
    parentPid: fields[1]!,
    cpuSeconds: seconds(11, 12),
    reapedChildrenCpuSeconds: seconds(13, 14),
  };
}

/** User + system CPU time of a running process. */
export function processCpuSeconds(pid: number): number {
  const stat = readProcStat(pid);
  if (!stat) throw new Error(`process ${pid} has exited`);
  return stat.cpuSeconds;
}

/**
 * CPU seconds spent by every PostgreSQL process on this machine: the live ones (postmaster,
 * backends, background workers) plus the children the postmaster has already reaped (autovacuum
 * workers come and go). The bench runs one PostgreSQL, so this is that server's work.
 */
export function postgresCpuSeconds(): number {
  let seconds = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcStat(entry);
    if (stat?.command !== 'postgres') continue;
    seconds += stat.cpuSeconds;
    // Only the postmaster's reaped children are PostgreSQL's own (its parent is runuser).
    if (readProcStat(stat.parentPid)?.command !== 'postgres') seconds += stat.reapedChildrenCpuSeconds;
  }
  return seconds;
}
