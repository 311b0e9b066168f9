/**
 * An MCP App view's panel and the ext-apps AppBridge, loaded when the first view opens. In the
 * bundle, esbuild.js maps this require to the separate file dist/appView.js (built from
 * appViewPanel.ts); under tsx and mocha it is the source.
 */
export function loadAppViewPanel(): typeof import('./appViewPanel') {
  // A require, not import(): the bundle's CommonJS output keeps it as a plain require of ./appView.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./appViewPanel') as typeof import('./appViewPanel');
}
