/**
 * A browser session's user agent as a person reads it: `Chrome 131 on Windows`, `Safari 18 on
 * iPhone`, `curl 8.5`. Order matters: Edge and Opera say "Chrome" too, Chrome says "Safari", every
 * Android says "Linux".
 */
const BROWSERS: [name: string, pattern: RegExp][] = [
  ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /(?:OPR|Opera)\/(\d+)/],
  ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//],
  ['curl', /^curl\/([\d.]+)/],
  ['infragate CLI', /^infragate(?:-cli)?\/([\d.]+)/],
];

const SYSTEMS: [name: string, pattern: RegExp][] = [
  ['iPhone', /iPhone/],
  ['iPad', /iPad/],
  ['Android', /Android/],
  ['Windows', /Windows/],
  ['macOS', /Mac OS X|Macintosh/],
  ['ChromeOS', /CrOS/],
  ['Linux', /Linux/],
];

export function describeUserAgent(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown browser';
  const browser = BROWSERS.map(([name, pattern]) => [name, pattern.exec(userAgent)?.[1]] as const).find(
    ([, version]) => version !== undefined,
  );
  const system = SYSTEMS.find(([, pattern]) => pattern.test(userAgent))?.[0];
  const browserText = browser ? `${browser[0]} ${browser[1]}` : undefined;
  if (browserText && system) return `${browserText} on ${system}`;
  return browserText ?? (system ? `A browser on ${system}` : userAgent.slice(0, 60));
}
