import { type Browser, chromium } from 'playwright-core';
import { findBinary } from './peers.js';

/** Whether Debian's chromium can be started here, and why not. */
export function chromiumBinary() {
  return findBinary('chromium', ['/usr/bin/chromium']);
}

// Headless in a container: no sandbox (root), no GPU, and nothing that reaches the network by itself.
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Starts the system's chromium through playwright-core (Playwright's own browser downloads are
 * not reachable here). Each launch gets a fresh temporary user-data-dir from Playwright, removed on
 * close. One browser per test file; each test opens its own context (cookies, storage).
 */
export async function launchChromium(): Promise<Browser> {
  const binary = chromiumBinary();
  if (!binary.path) throw new Error(binary.skipReason);
  return chromium.launch({ executablePath: binary.path, headless: true, args: ARGS });
}
