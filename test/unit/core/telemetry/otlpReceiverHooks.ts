import type { TelemetryExport } from '../../../../src/core/telemetry/telemetryExport';
import { startOtlpReceiver, type OtlpReceiver } from '../../../fixtures/otlpReceiver';

/** A fresh OTLP receiver for every test of the enclosing `describe`; the exports a test adds to `exports` are closed before it. */
export function useOtlpReceiver(): { readonly receiver: OtlpReceiver; readonly exports: TelemetryExport[] } {
  let receiver: OtlpReceiver | undefined;
  const exports: TelemetryExport[] = [];
  beforeEach(async () => (receiver = await startOtlpReceiver()));
  afterEach(async () => {
    await Promise.all(exports.splice(0).map((t) => t.close(2000)));
    await receiver?.close();
  });
  return {
    get receiver(): OtlpReceiver {
      if (!receiver) throw new Error('the OTLP receiver starts before each test');
      return receiver;
    },
    exports,
  };
}
