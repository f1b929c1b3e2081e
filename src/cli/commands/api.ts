import fs from 'node:fs';
import { type Command, Option } from 'commander';
import { ApiClient, ApiRequestError, errorOf, type HttpMethod, type RequestOptions } from '../api-client.js';
import { resolveTarget } from '../api-command.js';
import { CliError } from '../cli-error.js';
import { collect, fieldArguments, fieldsToBody, fieldsToQuery } from '../fields.js';

const METHODS: HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

interface ApiOptions {
  rawField?: string[];
  field?: string[];
  query?: string[];
  header?: string[];
  input?: string;
  include?: boolean;
  url?: string;
  token?: string;
}

function headersOf(lines: string[] = []): Record<string, string> {
  return Object.fromEntries(
    lines.map((line) => {
      const at = line.indexOf(':');
      if (at < 1) throw new CliError(`header ${line} is not name:value`);
      return [line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()];
    }),
  );
}

/** The body of `--input`: a file (with its length) or standard input, sent as JSON unless `-H` says otherwise. */
function inputBody(input: string): RequestOptions {
  if (input === '-') return { body: process.stdin, contentType: 'application/json' };
  const stat = fs.statSync(input, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new CliError(`--input ${input} is not a readable file`);
  return { body: fs.createReadStream(input), length: stat.size, contentType: 'application/json' };
}

/** Writes an answer: JSON pretty-printed on a terminal, the bytes as received otherwise. */
function printBody(bytes: Buffer, body: unknown): void {
  if (bytes.length === 0) return;
  if (body !== undefined && process.stdout.isTTY) process.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
  else {
    process.stdout.write(bytes);
    if (bytes.at(-1) !== 0x0a && body !== undefined) process.stdout.write('\n');
  }
}

/**
 * `infragate api <METHOD> <PATH>`, like `gh api`: any operation of the gateway with the saved (or
 * given) token. Fields become a JSON body, or the query string for GET and HEAD and when `--input`
 * supplies the body.
 */
export function registerApi(program: Command): void {
  program
    .command('api')
    .description(
      'call any API operation and print its JSON answer (exit 1 with the error message on failure)',
    )
    .argument('<method>', `HTTP method (${METHODS.join(', ')})`)
    .argument('<path>', 'path of the operation, e.g. /api/pages or /auth/me')
    .option(
      '-f, --raw-field <key=value>',
      'a string field (repeatable; key[sub]=v nests, key[]=v appends)',
      collect,
    )
    .option(
      '-F, --field <key=value>',
      'a typed field: true, false, null and numbers become JSON values, @file reads a file (@- stdin) (repeatable)',
      collect,
    )
    .option('-q, --query <key=value>', 'a query parameter (repeatable)', collect)
    .option('-H, --header <name:value>', 'a request header (repeatable)', collect)
    .option(
      '--input <file>',
      'send this file as the body (- for standard input); fields then go to the query',
    )
    .option('-i, --include', 'print the status line and headers before the body')
    .addOption(new Option('--url <url>', 'gateway base URL (default: $INFRAGATE_URL, else the saved login)'))
    .addOption(new Option('--token <token>', 'API token (default: $INFRAGATE_TOKEN, else the saved login)'))
    .action(async (methodArg: string, pathArg: string, opts: ApiOptions) => {
      const method = METHODS.find((known) => known === methodArg.toUpperCase());
      if (!method) throw new CliError(`method ${methodArg} is not one of ${METHODS.join(', ')}`);
      const route = pathArg.startsWith('/') ? pathArg : `/${pathArg}`;
      const target = await resolveTarget(opts);
      const api = new ApiClient(target.url, target.token);

      const fields = fieldArguments(opts.rawField, opts.field);
      const fieldsInQuery = method === 'GET' || method === 'HEAD' || opts.input !== undefined;
      const query = await fieldsToQuery([
        ...(fieldsInQuery ? fields : []),
        ...(opts.query ?? []).map((text) => ({ text, typed: false })),
      ]);
      const body = opts.input !== undefined ? inputBody(opts.input) : undefined;
      const response = await api.send(method, route, {
        query,
        headers: headersOf(opts.header),
        ...(body ?? (!fieldsInQuery && fields.length > 0 ? { json: await fieldsToBody(fields) } : {})),
      });
      if (opts.include) {
        process.stdout.write(`HTTP ${response.status}\n`);
        for (const [name, value] of Object.entries(response.headers))
          process.stdout.write(`${name}: ${Array.isArray(value) ? value.join(', ') : value}\n`);
        process.stdout.write('\n');
      }
      printBody(response.bytes, response.body);
      if (response.status >= 400) throw new ApiRequestError(errorOf(response));
    });
}
