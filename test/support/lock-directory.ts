import fs from 'node:fs';
import path from 'node:path';

/**
 * A lock shared by test processes: a directory (made atomically) holding its owner's pid. A lock
 * whose owner is gone, or older than `staleMs`, is taken over.
 */
export function tryLock(lock: string, staleMs: number): boolean {
  try {
    fs.mkdirSync(lock);
    fs.writeFileSync(path.join(lock, 'owner'), String(process.pid));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  if (abandoned(lock, staleMs)) fs.rmSync(lock, { recursive: true, force: true });
  return false;
}

/** Lets go of a lock this process holds (not one taken over since). */
export function unlock(lock: string): void {
  if (owner(lock) === process.pid) fs.rmSync(lock, { recursive: true, force: true });
}

function owner(lock: string): number | undefined {
  try {
    return Number(fs.readFileSync(path.join(lock, 'owner'), 'utf8'));
  } catch {
    return undefined;
  }
}

function abandoned(lock: string, staleMs: number): boolean {
  const made = fs.statSync(lock, { throwIfNoEntry: false });
  if (!made) return false;
  if (Date.now() - made.mtimeMs > staleMs) return true;
  const pid = owner(lock);
  // No owner yet: the holder is between making the directory and writing its pid.
  return pid !== undefined && !alive(pid);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
