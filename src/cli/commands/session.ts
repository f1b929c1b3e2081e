import type { Command } from 'commander';
import { ApiClient } from '../api-client.js';
import { apiAction } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { configFilePath, forgetLogin, readSavedLogin, saveLogin } from '../config-file.js';
import { readStdinOnce } from '../fields.js';
import { Output } from '../output.js';

/** `login`, `logout`, `whoami`: the saved gateway URL and token every API command falls back on. */
export function registerSession(program: Command): void {
  program
    .command('login')
    .description(
      'check a token with GET /auth/me, then save the URL and token in $XDG_CONFIG_HOME/infragate/config.json (~/.config when unset; mode 0600)',
    )
    .option('--url <url>', 'gateway base URL (default: $INFRAGATE_URL)')
    .option('--token <token>', 'API token (default: $INFRAGATE_TOKEN); prefer --token-stdin')
    .option('--token-stdin', 'read the token from standard input')
    .option('--json', 'print JSON')
    .action(async (opts: { url?: string; token?: string; tokenStdin?: boolean; json?: boolean }) => {
      const url = opts.url || process.env.INFRAGATE_URL;
      if (!url) throw new CliError('login needs --url <base URL> (or INFRAGATE_URL)');
      if (opts.token && opts.tokenStdin) throw new CliError('pass --token or --token-stdin, not both');
      const token = opts.tokenStdin
        ? (await readStdinOnce()).trim()
        : opts.token || process.env.INFRAGATE_TOKEN;
      if (!token) throw new CliError('login needs --token, --token-stdin or INFRAGATE_TOKEN');
      const api = new ApiClient(url, token);
      const { data: me } = await api.call('GET', '/auth/me');
      const file = await saveLogin({ url: api.baseUrl, token });
      Output.forOptions(opts).done(
        { url: api.baseUrl, user: me, configFile: file },
        `logged in to ${api.baseUrl} as ${me.email} (group ${me.groupName}); saved in ${file}`,
      );
    });

  program
    .command('logout')
    .description('forget the saved login (the token stays valid unless --revoke)')
    .option('--revoke', 'also revoke the saved token on the gateway (POST /auth/logout)')
    .option('--json', 'print JSON')
    .action(async (opts: { revoke?: boolean; json?: boolean }) => {
      const saved = await readSavedLogin();
      if (!saved) throw new CliError(`not logged in (no ${configFilePath()})`);
      if (opts.revoke) await new ApiClient(saved.url, saved.token).call('POST', '/auth/logout');
      await forgetLogin();
      Output.forOptions(opts).done(
        { url: saved.url, revoked: Boolean(opts.revoke) },
        `logged out of ${saved.url}${opts.revoke ? '; the token is revoked' : ''}`,
      );
    });

  apiAction(
    program.command('whoami').description('show the gateway, the user the token acts as, and its scopes'),
    async ({ api, out, target }) => {
      const { data: me } = await api.call('GET', '/auth/me');
      out.record({
        url: target.url,
        email: me.email,
        name: me.name,
        group: me.groupName,
        scopes: me.scopes,
        id: me.id,
        urlFrom: target.urlFrom,
        tokenFrom: target.tokenFrom,
      });
    },
  );
}
