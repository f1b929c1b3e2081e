// madge ships no type declarations; the import-graph test uses this much of it.
declare module 'madge' {
  interface MadgeResult {
    /** Each file (relative to the base directory) and the files it imports. */
    obj(): Record<string, string[]>;
    /** Every import circle, as the files along it. */
    circular(): string[][];
  }
  interface MadgeConfig {
    fileExtensions?: string[];
    tsConfig?: string;
    detectiveOptions?: Record<string, Record<string, unknown>>;
  }
  export default function madge(path: string | string[], config?: MadgeConfig): Promise<MadgeResult>;
}
