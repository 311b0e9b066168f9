/**
 * The loopback receiver of a browser sign-in's redirect, loaded when the first sign-in opens the
 * browser. In the bundles, esbuild.js maps this require to the separate file dist/signInRedirect.js
 * (built from loopbackRedirectReceiver.ts); under tsx and mocha it is the source.
 */
export function loadRedirectReceiver(): typeof import('./loopbackRedirectReceiver') {
  // A require, not import(): the bundles' CommonJS output keeps it as a plain require of ./signInRedirect.js.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./loopbackRedirectReceiver') as typeof import('./loopbackRedirectReceiver');
}
