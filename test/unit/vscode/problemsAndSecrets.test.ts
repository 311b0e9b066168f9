import { window } from './fakeVscode';
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { SettingsProblem } from '../../../src/core/settings/hostSettings';
import type { Logger } from '../../../src/core/util/logger';
import { ProblemReporter, problemNotification, type ProblemNotification } from '../../../src/vscode/problemReporter';
import { SecretStore } from '../../../src/vscode/secretStore';

function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const log = (level: string) => (m: string) => lines.push(`${level} ${m}`);
  return { lines, trace: log('trace'), debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}

const bad: SettingsProblem = { severity: 'error', setting: 'mcpHost.servers.orders.command', message: 'missing: expected a non-empty string; server "orders" is not loaded' };
const warn: SettingsProblem = { severity: 'warning', setting: 'mcpHost.autoApprove[0]', message: '"x" is not a configured server' };

describe('settings problems', () => {
  it('one notification names the setting path', () => {
    assert.deepEqual(problemNotification([bad]), {
      severity: 'error',
      message: 'MCP Host settings: mcpHost.servers.orders.command: missing: expected a non-empty string; server "orders" is not loaded',
    });
    const many = problemNotification([warn, bad]);
    assert.equal(many?.severity, 'error');
    assert.match(many!.message, /^MCP Host found 2 problems in its settings \(all are listed in the MCP Host output\)\. First: mcpHost\.servers\.orders\.command/);
    assert.equal(problemNotification([warn])?.severity, 'warning');
    assert.equal(problemNotification([]), undefined);
    assert.ok(problemNotification([{ ...bad, message: 'x'.repeat(1000) }])!.message.length <= 400);
  });

  it('reports a problem set once, again only when it changes', () => {
    const logger = recordingLogger();
    const shown: ProblemNotification[] = [];
    const reporter = new ProblemReporter(logger, (n) => shown.push(n));
    reporter.report('settings', [bad, warn]);
    reporter.report('settings', [bad, warn]);
    assert.equal(shown.length, 1);
    assert.deepEqual(logger.lines, [
      'error settings: mcpHost.servers.orders.command: missing: expected a non-empty string; server "orders" is not loaded',
      'warn settings: mcpHost.autoApprove[0]: "x" is not a configured server',
    ]);
    reporter.report('tool names', [warn]);
    assert.equal(shown.length, 2, 'another source is reported on its own');
    reporter.report('settings', [warn]);
    assert.equal(shown.length, 3);
    reporter.report('settings', []);
    assert.equal(shown.length, 3);
    assert.equal(logger.lines.at(-1), 'info settings: the earlier problems are resolved');
    reporter.report('settings', [warn]);
    assert.equal(shown.length, 4, 'a problem that comes back is reported again');
  });
});

describe('SecretStore', () => {
  const originalInput = window.showInputBox;
  afterEach(() => (window.showInputBox = originalInput));

  function fakeStorage() {
    const values = new Map<string, string>();
    const listeners: ((e: { key: string }) => void)[] = [];
    const storage = {
      values,
      get: async (k: string) => values.get(k),
      store: async (k: string, v: string) => {
        values.set(k, v);
        listeners.forEach((l) => l({ key: k }));
      },
      delete: async (k: string) => {
        values.delete(k);
        listeners.forEach((l) => l({ key: k }));
      },
      keys: async () => [...values.keys()],
      onDidChange: (l: (e: { key: string }) => void) => {
        listeners.push(l);
        return { dispose() {} };
      },
    };
    return storage;
  }
  function fakeMemento() {
    const data = new Map<string, unknown>();
    return { get: <T>(k: string) => data.get(k) as T | undefined, update: async (k: string, v: unknown) => void data.set(k, v), keys: () => [...data.keys()] };
  }

  it('resolves from secret storage', async () => {
    const storage = fakeStorage();
    storage.values.set('KB', 's3cret-value');
    const store = new SecretStore(storage as unknown as vscode.SecretStorage, fakeMemento() as unknown as vscode.Memento, recordingLogger(), () => []);
    assert.equal(await store.get('KB'), 's3cret-value');
  });

  it('asks once with a password box without blocking the start, stores the answer and announces it', async () => {
    const storage = fakeStorage();
    const logger = recordingLogger();
    const asked: Record<string, unknown>[] = [];
    let answer!: (v: string | undefined) => void;
    window.showInputBox = (options?: unknown) => {
      asked.push(options as Record<string, unknown>);
      return new Promise((r) => (answer = r));
    };
    const store = new SecretStore(storage as unknown as vscode.SecretStorage, fakeMemento() as unknown as vscode.Memento, logger, () => ['kb']);
    const changed: string[] = [];
    store.onDidChange((n) => changed.push(n));
    assert.equal(await store.get('KB_TOKEN_MISSING'), undefined, 'returns at once: the server fails and restarts later');
    assert.equal(await store.get('KB_TOKEN_MISSING'), undefined);
    assert.equal(asked.length, 1, 'asked once');
    assert.equal(asked[0].password, true);
    assert.match(String(asked[0].prompt), /used by "kb"/);
    answer('typed-secret-value');
    await new Promise((r) => setImmediate(r));
    assert.equal(storage.values.get('KB_TOKEN_MISSING'), 'typed-secret-value');
    assert.deepEqual(changed, ['KB_TOKEN_MISSING']);
    assert.deepEqual(store.storedNames(), ['KB_TOKEN_MISSING']);
    assert.ok(!logger.lines.join('\n').includes('typed-secret-value'), 'the value is never logged');
    await store.delete('KB_TOKEN_MISSING');
    assert.deepEqual(store.storedNames(), []);
  });

  it('falls back to MCP_HOST_SECRET_NAME from the environment before asking', async () => {
    process.env.MCP_HOST_SECRET_FROM_ENV_TEST = 'env-value';
    let asked = 0;
    window.showInputBox = async () => {
      asked++;
      return undefined;
    };
    try {
      const store = new SecretStore(fakeStorage() as unknown as vscode.SecretStorage, fakeMemento() as unknown as vscode.Memento, recordingLogger(), () => []);
      assert.equal(await store.get('FROM_ENV_TEST'), 'env-value');
      assert.equal(asked, 0);
    } finally {
      delete process.env.MCP_HOST_SECRET_FROM_ENV_TEST;
    }
  });
});
