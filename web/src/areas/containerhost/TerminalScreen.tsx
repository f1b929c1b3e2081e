import '@xterm/xterm/css/xterm.css';
import { Box, Button, Group, Stack, Text } from '@mantine/core';
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import { useEffect, useRef, useState } from 'react';
import type { paths } from '../../api/schema';
import { uploadUrl } from '../../api/upload';

/** The terminal operation of the API document (a WebSocket upgrade), checked against its typed paths. */
const TERMINAL_PATH =
  '/api/containerhost/nodes/{nodeId}/containers/{containerId}/terminal' satisfies keyof paths;

/** The gateway's control messages (text frames); the terminal's bytes travel as binary frames. */
type ControlMessage = { type: 'exit'; exitCode: number | null } | { type: 'error'; message: string };

/** The terminal's WebSocket address on this origin (the session cookie goes with the upgrade). */
function terminalUrl(nodeId: string, containerId: string, cols: number, rows: number): string {
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  const path = uploadUrl(TERMINAL_PATH, { nodeId, containerId }, { cmd: '/bin/sh', cols, rows });
  return `${scheme}://${window.location.host}${path}`;
}

/**
 * An interactive shell in a running container: xterm.js over the gateway's terminal WebSocket.
 * Its own chunk, loaded only when the Terminal tab opens, so xterm stays out of the rest.
 */
export default function TerminalScreen({ nodeId, containerId }: { nodeId: string; containerId: string }) {
  const host = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState('Connecting…');
  const [session, setSession] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `session` changes when Reconnect asks for a new shell
  useEffect(() => {
    const element = host.current;
    if (!element) return;
    const terminal = new Terminal({
      convertEol: false,
      cursorBlink: true,
      fontSize: 13,
      screenReaderMode: true,
    });
    const fit = new FitAddon();
    terminal.loadAddon(fit);
    terminal.open(element);
    fit.fit();
    const socket = new WebSocket(terminalUrl(nodeId, containerId, terminal.cols, terminal.rows));
    socket.binaryType = 'arraybuffer';
    let opened = false;
    let ended = false;
    const encoder = new TextEncoder();
    socket.onopen = () => {
      opened = true;
      setStatus('Connected: /bin/sh');
      terminal.focus();
    };
    socket.onmessage = ({ data }) => {
      if (data instanceof ArrayBuffer) {
        terminal.write(new Uint8Array(data));
        return;
      }
      const message = JSON.parse(String(data)) as ControlMessage;
      if (message.type === 'exit') {
        ended = true;
        setStatus(`The shell ended (exit code ${message.exitCode ?? 'unknown'}).`);
      } else setStatus(`The gateway refused a message: ${message.message}`);
    };
    socket.onclose = () => {
      if (!opened) setStatus('The terminal could not open: is the container running, and may you manage it?');
      else if (!ended) setStatus('The connection closed.');
    };
    const typed = terminal.onData((text) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(encoder.encode(text));
    });
    const resized = terminal.onResize(({ cols, rows }) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'resize', cols, rows }));
    });
    // The screen follows its box: the page's width, a phone's included.
    const observer = new ResizeObserver(() => fit.fit());
    observer.observe(element);
    return () => {
      observer.disconnect();
      typed.dispose();
      resized.dispose();
      socket.close();
      terminal.dispose();
    };
  }, [nodeId, containerId, session]);
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed" role="status">
          {status}
        </Text>
        <Button
          size="xs"
          variant="default"
          onClick={() => {
            setStatus('Connecting…');
            setSession((count) => count + 1);
          }}
        >
          Reconnect
        </Button>
      </Group>
      <Box
        ref={host}
        role="region"
        aria-label={`Terminal of ${containerId}`}
        h={420}
        p={4}
        style={{ background: '#000', borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden' }}
      />
    </Stack>
  );
}
