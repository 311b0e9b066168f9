import * as vscode from 'vscode';
import type { HostLogLevel, LogLevelSource } from '../core/mcp/serverLogLevel';
import type { Event } from '../core/util/event';
import type { Logger } from '../core/util/logger';

export const OUTPUT_CHANNEL_NAME = 'MCP Host';

/**
 * The core's Logger over the "MCP Host" log output channel. Server processes may still log while
 * they shut down after the channel is gone, so writes after dispose are dropped.
 */
export class OutputLogger implements Logger, LogLevelSource, vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;
  private disposed = false;

  constructor() {
    this.channel = vscode.window.createOutputChannel(OUTPUT_CHANNEL_NAME, { log: true });
  }

  trace(message: string): void {
    if (!this.disposed) this.channel.trace(message);
  }
  debug(message: string): void {
    if (!this.disposed) this.channel.debug(message);
  }
  info(message: string): void {
    if (!this.disposed) this.channel.info(message);
  }
  warn(message: string): void {
    if (!this.disposed) this.channel.warn(message);
  }
  error(message: string): void {
    if (!this.disposed) this.channel.error(message);
  }

  /** The channel's log level (Developer: Set Log Level…), which servers' `logging/setLevel` follows. */
  get level(): HostLogLevel {
    switch (this.channel.logLevel) {
      case vscode.LogLevel.Trace:
        return 'trace';
      case vscode.LogLevel.Debug:
        return 'debug';
      case vscode.LogLevel.Info:
        return 'info';
      case vscode.LogLevel.Warning:
        return 'warn';
      case vscode.LogLevel.Error:
        return 'error';
      default:
        return 'off';
    }
  }

  readonly onDidChange: Event<void> = (listener) => this.channel.onDidChangeLogLevel(() => listener());

  show(): void {
    if (!this.disposed) this.channel.show(true);
  }

  dispose(): void {
    this.disposed = true;
    this.channel.dispose();
  }
}
