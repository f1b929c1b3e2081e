import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** What `infragate login` remembers: the gateway and the API token to call it with. */
export interface SavedLogin {
  url: string;
  token: string;
}

/** `$XDG_CONFIG_HOME/infragate/config.json`, `~/.config/infragate/config.json` when XDG_CONFIG_HOME is unset. */
export function configFilePath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'infragate', 'config.json');
}

/** The saved login; undefined when there is none (or the file is not ours to read). */
export async function readSavedLogin(env: NodeJS.ProcessEnv = process.env): Promise<SavedLogin | undefined> {
  const text = await fsp.readFile(configFilePath(env), 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const saved = JSON.parse(text) as Partial<SavedLogin>;
    return typeof saved.url === 'string' && typeof saved.token === 'string'
      ? { url: saved.url, token: saved.token }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Saves the login with the token readable by its owner only: the directory 0700 and the file 0600,
 * also when they existed before with wider permissions. The file is written beside and renamed into
 * place, so a crash never leaves half a file.
 */
export async function saveLogin(login: SavedLogin, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const file = configFilePath(env);
  const dir = path.dirname(file);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  await fsp.chmod(dir, 0o700);
  const staging = `${file}.${process.pid}.tmp`;
  await fsp.writeFile(staging, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  await fsp.chmod(staging, 0o600);
  await fsp.rename(staging, file);
  return file;
}

/** Removes the saved login; answers whether there was one. */
export async function forgetLogin(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  const file = configFilePath(env);
  const existed = await fsp
    .access(file)
    .then(() => true)
    .catch(() => false);
  await fsp.rm(file, { force: true });
  return existed;
}
