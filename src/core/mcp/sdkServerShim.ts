/**
 * What the gateway's bundle loads in place of `@modelcontextprotocol/server/_shims` (esbuild.js,
 * plugin one-ajv): the server's Node shim, with the host's validator (sdkValidatorShim.ts) in
 * place of the server's own copy of ajv.
 */
export { DefaultJsonSchemaValidator } from './sdkValidatorShim';
export { default as process } from 'node:process';
