import { describe, expect, it } from 'vitest';
import { parseCommand, parseEnv, parsePorts } from './container-form';

describe('the create-container form', () => {
  it('reads NAME=value lines as the environment, keeping = and spaces in values', () => {
    expect(parseEnv('A=1\n\n  B=x=y z \nEMPTY=')).toEqual({ env: { A: '1', B: 'x=y z', EMPTY: '' } });
  });

  it('refuses an environment line without a name', () => {
    expect(parseEnv('=1')).toEqual({ error: '“=1” is not NAME=value' });
  });

  it('reads the -p forms of ports', () => {
    expect(parsePorts('8080\n8081:80\n127.0.0.1:0:53/udp\n[::1]:9000:9000')).toEqual({
      ports: [
        { containerPort: 8080 },
        { containerPort: 80, hostPort: 8081 },
        { containerPort: 53, hostPort: 0, hostIp: '127.0.0.1', protocol: 'udp' },
        { containerPort: 9000, hostPort: 9000, hostIp: '::1' },
      ],
    });
  });

  it('refuses a port line it cannot read', () => {
    expect(parsePorts('http')).toEqual({
      error: '“http” is not [host-ip:][host-port:]container-port[/protocol]',
    });
  });

  it('splits a command on spaces', () => {
    expect(parseCommand('  sleep   600 ')).toEqual(['sleep', '600']);
  });

  it('keeps quoted words whole, empty ones included', () => {
    expect(parseCommand(`sh -c "echo 'hi there'; sleep 9" ''`)).toEqual([
      'sh',
      '-c',
      "echo 'hi there'; sleep 9",
      '',
    ]);
  });
});
