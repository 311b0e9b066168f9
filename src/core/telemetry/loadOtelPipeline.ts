import type { PipelineFactory } from './telemetryPipeline';

/**
 * Loads the OpenTelemetry SDK only when an endpoint is set. In the bundles, esbuild.js maps this
 * require to the separate file dist/otel.js (built from otelPipeline.ts), so dist/extension.js stays
 * small and a window without telemetry never reads the SDK; under tsx and mocha it is the source.
 */
export async function loadOtelPipeline(): Promise<PipelineFactory> {
  // A require, not import(): the bundles' CommonJS output keeps it as a plain require of ./otel.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const m = require('./otelPipeline') as typeof import('./otelPipeline');
  return m.createOtelPipeline;
}
