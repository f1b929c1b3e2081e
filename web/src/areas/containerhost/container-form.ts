import type { Body } from '../../api/types';

type CreateBody = Body<'/api/containerhost/nodes/{nodeId}/containers', 'post'>;
type PortSpec = NonNullable<CreateBody['ports']>[number];

/** A text field's lines, trimmed, without the empty ones. */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

/** `NAME=value` lines → `{NAME: value}`; a line without `=` (or with an empty name) is refused. */
export function parseEnv(text: string): { env: Record<string, string> } | { error: string } {
  const env: Record<string, string> = {};
  for (const line of lines(text)) {
    const at = line.indexOf('=');
    if (at <= 0) return { error: `“${line}” is not NAME=value` };
    env[line.slice(0, at)] = line.slice(at + 1);
  }
  return { env };
}

const PORT_LINE = /^(?:(?:(\[[0-9a-fA-F:.]+\]|[0-9.]+):)?(\d+):)?(\d+)(?:\/(tcp|udp|sctp))?$/;

/**
 * Docker's `-p` forms, one a line: `8080` (any free host port), `8081:8080`, `127.0.0.1:8081:8080`,
 * each with an optional `/udp`; host port 0 means any free one.
 */
export function parsePorts(text: string): { ports: PortSpec[] } | { error: string } {
  const ports: PortSpec[] = [];
  for (const line of lines(text)) {
    const match = PORT_LINE.exec(line);
    if (!match) return { error: `“${line}” is not [host-ip:][host-port:]container-port[/protocol]` };
    const [, hostIp, hostPort, containerPort, protocol] = match;
    ports.push({
      containerPort: Number(containerPort),
      ...(hostPort !== undefined ? { hostPort: Number(hostPort) } : {}),
      ...(hostIp ? { hostIp: hostIp.replace(/^\[|\]$/g, '') } : {}),
      ...(protocol ? { protocol: protocol as PortSpec['protocol'] } : {}),
    });
  }
  return { ports };
}

/**
 * A command line split into words as a shell would, without running one: spaces separate words,
 * single or double quotes keep spaces inside one (`sh -c "echo hi; sleep 9"` → `['sh', '-c', 'echo hi; sleep 9']`).
 * An unclosed quote runs to the end.
 */
export function parseCommand(text: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote: string | undefined;
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (/\s/.test(char)) {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else {
      word = (word ?? '') + char;
    }
  }
  if (word !== undefined) words.push(word);
  return words;
}
