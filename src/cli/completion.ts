import type { Command, Option } from 'commander';
import { walkCommands } from './command-tree.js';

/**
 * Shell completion scripts generated from the command tree, so a new command completes without
 * touching this file. Each script finds the command path typed so far (the words that name
 * subcommands), then offers that command's subcommands, or its options after a `-`.
 */

interface Node {
  /** Space-joined command words, '' for the root. */
  path: string;
  subcommands: { name: string; description: string }[];
  options: { flags: string[]; description: string; takesValue: boolean }[];
}

function optionsOf(command: Command): Node['options'] {
  const help = { flags: ['-h', '--help'], description: 'show help for the command', takesValue: false };
  return [
    ...command.options.map((option: Option) => ({
      flags: [option.short, option.long].filter((flag): flag is string => Boolean(flag)),
      description: option.description,
      takesValue: option.required || option.optional,
    })),
    help,
  ];
}

function nodesOf(program: Command): Node[] {
  const describe = (command: Command): Node['subcommands'] =>
    command.commands.flatMap((child) =>
      [child.name(), ...child.aliases()].map((name) => ({
        name,
        description: child.summary() || child.description(),
      })),
    );
  return [
    { path: '', subcommands: describe(program), options: optionsOf(program) },
    ...walkCommands(program).map(({ words, command }) => ({
      path: words.join(' '),
      subcommands: describe(command),
      options: optionsOf(command),
    })),
  ];
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A shell `case` over command paths; `body` writes each branch. */
function caseOver(nodes: Node[], body: (node: Node) => string, indent: string): string {
  return nodes.map((node) => `${indent}${quote(node.path)}) ${body(node)} ;;`).join('\n');
}

function bash(program: Command): string {
  const nodes = nodesOf(program);
  const name = program.name();
  return `# ${name} completion for bash. Load it with: source <(${name} completion bash)
_${name}_subcommands() {
  case "$1" in
${caseOver(nodes, (node) => `echo ${quote(node.subcommands.map((sub) => sub.name).join(' '))}`, '    ')}
  esac
}
_${name}_options() {
  case "$1" in
${caseOver(nodes, (node) => `echo ${quote(node.options.flatMap((option) => option.flags).join(' '))}`, '    ')}
  esac
}
_${name}() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmdpath="" word i
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="\${COMP_WORDS[i]}"
    if [[ "$word" != -* && " $(_${name}_subcommands "$cmdpath") " == *" $word "* ]]; then
      cmdpath="\${cmdpath:+$cmdpath }$word"
    fi
  done
  if [[ "$cur" == -* ]]; then
    mapfile -t COMPREPLY < <(compgen -W "$(_${name}_options "$cmdpath")" -- "$cur")
  else
    mapfile -t COMPREPLY < <(compgen -W "$(_${name}_subcommands "$cmdpath")" -- "$cur")
  fi
}
complete -o default -F _${name} ${name}
`;
}

function zsh(program: Command): string {
  const nodes = nodesOf(program);
  const name = program.name();
  const described = (items: { name: string; description: string }[]) =>
    `reply=(${items.map((item) => quote(`${item.name.replace(/:/g, '\\:')}:${oneLine(item.description)}`)).join(' ')})`;
  return `#compdef ${name}
# ${name} completion for zsh. Load it with: source <(${name} completion zsh)
_${name}_subcommands() {
  case "$1" in
${caseOver(nodes, (node) => described(node.subcommands), '    ')}
  esac
}
_${name}_options() {
  case "$1" in
${caseOver(
  nodes,
  (node) =>
    described(
      node.options.flatMap((option) =>
        option.flags.map((flag) => ({ name: flag, description: option.description })),
      ),
    ),
  '    ',
)}
  esac
}
_${name}() {
  local cmdpath="" word i
  local -a reply names
  for ((i = 2; i < CURRENT; i++)); do
    word="\${words[i]}"
    _${name}_subcommands "$cmdpath"
    names=("\${reply[@]%%:*}")
    if [[ "$word" != -* && \${names[(Ie)$word]} -gt 0 ]]; then
      cmdpath="\${cmdpath:+$cmdpath }$word"
    fi
  done
  reply=()
  if [[ "\${words[CURRENT]}" == -* ]]; then
    _${name}_options "$cmdpath"
    _describe -t options option reply
  else
    _${name}_subcommands "$cmdpath"
    if (( \${#reply} )); then _describe -t commands command reply; else _files; fi
  fi
}
if [[ "\${funcstack[1]}" == _${name} ]]; then _${name} "$@"; else compdef _${name} ${name}; fi
`;
}

function fish(program: Command): string {
  const nodes = nodesOf(program);
  const name = program.name();
  const lines: string[] = [];
  for (const node of nodes) {
    const when = `-n ${quote(`__${name}_at ${quote(node.path)}`)}`;
    for (const sub of node.subcommands)
      lines.push(
        `complete -c ${name} ${when} -f -a ${quote(sub.name)} -d ${quote(oneLine(sub.description))}`,
      );
    for (const option of node.options) {
      const flags = option.flags
        .map((flag) => (flag.startsWith('--') ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`))
        .join(' ');
      lines.push(
        `complete -c ${name} ${when} ${flags}${option.takesValue ? ' -r' : ''} -d ${quote(oneLine(option.description))}`,
      );
    }
  }
  return `# ${name} completion for fish. Load it with: ${name} completion fish | source
function __${name}_subcommands
    switch "$argv[1]"
${nodes.map((node) => `        case ${quote(node.path)}\n            printf '%s\\n' ${node.subcommands.map((sub) => quote(sub.name)).join(' ')}`).join('\n')}
    end
end
function __${name}_at
    set -l cmdpath ''
    for word in (commandline -opc)[2..-1]
        if not string match -q -- '-*' $word; and contains -- $word (__${name}_subcommands $cmdpath)
            set cmdpath (string trim -- "$cmdpath $word")
        end
    end
    test "$cmdpath" = "$argv[1]"
end
${lines.join('\n')}
`;
}

export const SHELLS = { bash, zsh, fish } as const;
export type Shell = keyof typeof SHELLS;
