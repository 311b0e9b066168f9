import packageJson from '../../package.json';

/** The CLI's version: the package version (bundled into dist/cli.js by esbuild). */
export const CLI_VERSION: string = packageJson.version;
