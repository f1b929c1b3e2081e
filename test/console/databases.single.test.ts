import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RedisServer, redisBinary, startRedis } from '../services/redis.js';
import {
  accessibilityViolations,
  type ConsoleHarness,
  type ConsoleUser,
  describeInBrowser,
  PHONE,
  screenshot,
  scrollsSideways,
  startConsole,
} from '../support/console.js';
import { testConfig } from '../support/gateway.js';

describeInBrowser(
  'the Databases page',
  () => {
    let harness: ConsoleHarness;
    let redis: RedisServer;
    let operator: ConsoleUser;
    let databaseId: string;
    beforeAll(async () => {
      redis = await startRedis();
      // A small reply limit, so a long string shows the truncation notice.
      harness = await startConsole({ keyvalue: { ...testConfig().keyvalue, maxReplyBytes: 1024 } });
      operator = await harness.createUser([
        'databases:view',
        'databases:manage',
        'databases:read',
        'databases:write',
      ]);
      const created = await harness.gateway.call('POST', '/api/databases', {
        body: { name: 'cache', type: 'keyvalue', url: redis.url },
      });
      databaseId = created.body.data.id;
    });
    afterAll(async () => {
      await harness?.close();
      await redis?.stop();
    });

    async function openPage(path: string, viewport?: { width: number; height: number }) {
      const opened = await harness.openSignedIn(operator, path, viewport);
      return opened;
    }

    async function openConsole() {
      const opened = await openPage(`/databases/${databaseId}`);
      await opened.page.getByRole('heading', { name: 'cache' }).waitFor();
      return { ...opened, command: opened.page.getByRole('textbox', { name: 'Command' }) };
    }

    const runThroughApi = async (command: string) =>
      (
        await harness.gateway.call('POST', `/api/databases/${databaseId}/keyvalue/command`, {
          body: { command },
        })
      ).body;

    it('registers a database through the form, which the API then lists', async () => {
      const { page } = await openPage('/databases');
      await page.getByRole('heading', { name: 'Databases' }).waitFor();
      await page.getByRole('button', { name: 'Add database' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add a database' });
      await dialog.getByLabel('Name', { exact: true }).fill('sessions');
      await dialog.getByLabel('URL').fill(`${redis.url}/3`);
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'databases-add');
      await dialog.getByRole('button', { name: 'Add database' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const listed = (await harness.gateway.call('GET', '/api/databases', { query: { q: 'sessions' } })).body
        .data;
      expect(listed).toMatchObject([{ name: 'sessions', dbIndex: 3, url: redis.url }]);
    });

    it('shows a refused registration next to its field', async () => {
      const { page } = await openPage('/databases');
      await page.getByRole('button', { name: 'Add database' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'Add a database' });
      await dialog.getByLabel('Name', { exact: true }).fill('with-password-in-url');
      await dialog.getByLabel('URL').fill('redis://user:secret@127.0.0.1:6379');
      await dialog.getByRole('button', { name: 'Add database' }).click();
      await dialog.getByRole('alert').waitFor();
      const url = dialog.getByLabel('URL');
      await expect(url.getAttribute('aria-invalid')).resolves.toBe('true');
    });

    it('tests the connection of a registered database', async () => {
      const { page, problems } = await openPage('/databases');
      await page.getByRole('button', { name: 'Test connection to cache' }).click();
      await page.getByRole('table', { name: 'Databases' }).getByText('Reachable').waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'databases');
      expect(problems).toEqual([]);
    });

    it('edits a registration through its dialog, which the API then shows', async () => {
      const created = await harness.gateway.call('POST', '/api/databases', {
        body: { name: 'to-edit', type: 'keyvalue', url: redis.url },
      });
      const { page } = await openPage('/databases?q=to-edit');
      await page.getByRole('button', { name: 'Edit to-edit' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit to-edit' });
      await dialog.getByLabel('Database number').fill('5');
      await dialog.getByRole('switch', { name: /Allow admin and dangerous commands/ }).check();
      expect(await accessibilityViolations(page)).toEqual([]);
      await dialog.getByRole('button', { name: 'Save database' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const saved = (await harness.gateway.call('GET', `/api/databases/${created.body.data.id}`)).body.data;
      expect(saved).toMatchObject({ dbIndex: 5, allowDangerous: true, status: { reachable: true } });
    });

    it('runs SET in the console, and GET through the API reads the value', async () => {
      const { page, command } = await openConsole();
      await command.fill('SET greeting "hello world"');
      await page.getByRole('button', { name: 'Run' }).click();
      await page
        .getByRole('article', { name: 'Result of SET greeting "hello world"' })
        .getByText('OK')
        .waitFor();
      expect(await runThroughApi('GET greeting')).toMatchObject({
        data: { result: 'hello world', type: 'string' },
      });
    });

    it('shows a hash as a table of its fields', async () => {
      await runThroughApi('HSET user:1 name "Ada Lovelace" lang en');
      const { page, command } = await openConsole();
      await command.fill('HGETALL user:1');
      await command.press('Enter');
      const fields = page.getByRole('article', { name: 'Result of HGETALL user:1' }).getByRole('table', {
        name: 'Hash fields',
      });
      await fields.getByRole('row', { name: 'name Ada Lovelace' }).waitFor();
      await fields.getByRole('row', { name: 'lang en' }).waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      await screenshot(page, 'databases-console');
    });

    it('shows integers, lists and nil as redis-cli does', async () => {
      const { page, command } = await openConsole();
      for (const line of ['DEL queue', 'RPUSH queue a b', 'LRANGE queue 0 -1', 'GET missing']) {
        await command.fill(line);
        await command.press('Enter');
        await page.getByRole('article', { name: `Result of ${line}` }).waitFor();
      }
      await page
        .getByRole('article', { name: 'Result of RPUSH queue a b' })
        .getByText('(integer) 2')
        .waitFor();
      const list = page.getByRole('article', { name: 'Result of LRANGE queue 0 -1' }).getByRole('listitem');
      await expect(list.allTextContents()).resolves.toEqual(['a', 'b']);
      await page.getByRole('article', { name: 'Result of GET missing' }).getByText('(nil)').waitFor();
    });

    it('recalls earlier commands with the up and down keys, from the history kept by the gateway', async () => {
      const first = await openConsole();
      for (const line of ['PING', 'GET greeting']) {
        await first.command.fill(line);
        await first.command.press('Enter');
        await first.page.getByRole('article', { name: `Result of ${line}` }).waitFor();
      }
      // A new page knows nothing but what the gateway keeps.
      const { command } = await openConsole();
      await command.fill('draft');
      await command.press('ArrowUp');
      await expect(command.inputValue()).resolves.toBe('GET greeting');
      await command.press('ArrowUp');
      await expect(command.inputValue()).resolves.toBe('PING');
      await command.press('ArrowDown');
      await command.press('ArrowDown');
      await expect(command.inputValue()).resolves.toBe('draft');
    });

    it('shows the reason of a refused command as the gateway gives it', async () => {
      const refusal = await harness.gateway.call('POST', `/api/databases/${databaseId}/keyvalue/command`, {
        body: { command: 'BLPOP queue 0' },
      });
      expect(refusal.status).toBe(422);
      const { page, command } = await openConsole();
      await command.fill('BLPOP queue 0');
      await command.press('Enter');
      const result = page.getByRole('article', { name: 'Result of BLPOP queue 0' });
      await result.getByText('BLOCKING_COMMAND').waitFor();
      await result.getByText(refusal.body.details.explanation).waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
    });

    it("shows the key-value server's own error word for word (LPUSH on a string key)", async () => {
      await runThroughApi('SET plain-string value');
      const refusal = await harness.gateway.call('POST', `/api/databases/${databaseId}/keyvalue/command`, {
        body: { command: 'LPUSH plain-string item' },
      });
      expect(refusal.body.details.serverError).toMatch(/^WRONGTYPE /);
      const { page, command } = await openConsole();
      await command.fill('LPUSH plain-string item');
      await command.press('Enter');
      const result = page.getByRole('article', { name: 'Result of LPUSH plain-string item' });
      await result.getByText(refusal.body.details.serverError, { exact: true }).waitFor();
      await result.getByRole('alert').waitFor();
      expect(await accessibilityViolations(page)).toEqual([]);
      expect(await runThroughApi('GET plain-string')).toMatchObject({ data: { result: 'value' } });
    });

    it('says when a reply was cut to the size limit', async () => {
      await runThroughApi(`SET big ${'x'.repeat(4000)}`);
      const { page, command } = await openConsole();
      await command.fill('GET big');
      await command.press('Enter');
      await page.getByRole('article', { name: 'Result of GET big' }).getByText('Reply truncated').waitFor();
    });

    it('is not offered to a user without a databases scope', async () => {
      expect(await harness.navigationFor(['admin:users'])).not.toContain('Databases');
    });

    it('fits a phone screen: the list and the console do not scroll sideways', async () => {
      const { page } = await openPage('/databases', PHONE);
      await page.getByRole('table', { name: 'Databases' }).getByText('cache').waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await screenshot(page, 'databases-phone');
      await page.goto(`/databases/${databaseId}`);
      const command = page.getByRole('textbox', { name: 'Command' });
      await command.fill('HGETALL user:1');
      await command.press('Enter');
      await page.getByRole('table', { name: 'Hash fields' }).waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      await screenshot(page, 'databases-console-phone');
    });
  },
  redisBinary(),
);
