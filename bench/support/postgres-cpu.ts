import fs from 'node:fs';

/**
 * CPU seconds spent by every PostgreSQL process on this machine: the live ones (postmaster,
 * backends, background workers) plus the children the postmaster has already reaped (autovacuum
 * workers come and go). The bench runs one PostgreSQL, so this is that server's work.
 */
export function postgresCpuSeconds(): number {
  let ticks = 0;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    if (!stat.includes('(postgres)')) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]);
    // Only the postmaster's reaped children are PostgreSQL's own (its parent is runuser).
    if (fields[1] !== undefined && !isPostgres(fields[1])) ticks += Number(fields[13]) + Number(fields[14]);
  }
  return ticks / 100;
}

function isPostgres(pid: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/stat`, 'utf8').includes('(postgres)');
  } catch {
    return false;
  }
}
