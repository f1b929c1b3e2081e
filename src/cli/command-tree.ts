import type { Command } from 'commander';

/** Every command of the tree under `root`, depth first, with its words (`['containers', 'ls']`). */
export function walkCommands(root: Command): { words: string[]; command: Command }[] {
  const found: { words: string[]; command: Command }[] = [];
  const visit = (command: Command, words: string[]) => {
    for (const child of command.commands) {
      const path = [...words, child.name()];
      found.push({ words: path, command: child });
      visit(child, path);
    }
  };
  visit(root, []);
  return found;
}
