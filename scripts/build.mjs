// Bundles the CLI and the extension host code (Node, CommonJS) and the webview (browser, IIFE).
// dockerode -> docker-modem -> ssh2 carries optional native addons (cpu-features, sshcrypto.node);
// both are loaded inside try/catch by ssh2 and only matter for ssh:// Docker hosts, so they stay external.
import { build } from 'esbuild';
import { existsSync, readFileSync } from 'node:fs';

// `podlab --version` and `podlab status` say the package's version.
const versionDefine = { __PODLAB_VERSION__: JSON.stringify(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version) };

// dockerode loads gRPC and protobuf at start-up for BuildKit builds only; Pod Lab never builds
// images, so its session module is replaced by a stub (scripts/stubs) in the bundles.
const trimDockerode = {
  name: 'trim-dockerode',
  setup(b) {
    b.onResolve({ filter: /^\.\/(session|buildkit)$/ }, (args) =>
      /[\\/]dockerode[\\/]lib$/.test(args.resolveDir) ? { path: new URL(`./stubs/dockerode-${args.path.slice(2)}.js`, import.meta.url).pathname } : undefined,
    );
  },
};


// In the extension bundle, `import('../client/cluster.js')` loads dist/cluster.js at run time.
const clusterClientExternal = {
  name: 'cluster-client-external',
  setup(b) {
    b.onResolve({ filter: /[\\/]client[\\/]cluster\.js$/ }, () => ({ path: './cluster.js', external: true }));
  },
};

const production = process.argv.includes('--production');
const common = {
  bundle: true,
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
  plugins: [trimDockerode],
};

const nodeExternal = ['vscode', 'cpu-features', '*.node'];


const jobs = [
  build({
    ...common,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    entryPoints: { cli: 'src/cli/main.ts' },
    outdir: 'dist',
    // `podlab validate` must not load Docker code: the engine commands are a separate bundle.
    external: [...nodeExternal, './podlab-engine.js'],
    define: { __PODLAB_BUNDLED__: 'true', ...versionDefine },
    banner: { js: '#!/usr/bin/env node' },
  }),
  build({
    ...common,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    entryPoints: { 'podlab-engine': 'src/cli/engine-commands.ts' },
    outdir: 'dist',
    // The client commands: the server (engine, Docker, certificates) is a bundle of its own.
    external: [...nodeExternal, './podlab-server.js'],
    define: { __PODLAB_BUNDLED__: 'true', ...versionDefine },
  }),
  build({
    ...common,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    entryPoints: { 'podlab-server': 'src/cli/serve-command.ts' },
    outdir: 'dist',
    external: nodeExternal,
    define: versionDefine,
  }),
];
if (existsSync('src/extension/extension.ts')) {
  jobs.push(
    build({
      ...common,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      entryPoints: { extension: 'src/extension/extension.ts' },
      outdir: 'dist',
      // when the bundle began to run (after its "use strict", which must stay first): activation's log line counts the modules' time before it
      banner: { js: '"use strict";var __podlabBundleStart = performance.now();' },
      external: nodeExternal,
      // The real-cluster client (@kubernetes/client-node) is a bundle of its own, loaded when a
      // kubeconfig context is first opened: activation never parses it.
      plugins: [...common.plugins, clusterClientExternal],
    }),
    build({
      ...common,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      entryPoints: { cluster: 'src/client/cluster.ts' },
      outdir: 'dist',
      external: nodeExternal,
      // node-fetch 2 falls back to the whatwg-url package (~290 KB with tr46) only where Node has no
      // global URL; Node 20 has one, so the fallback is Node's own.
      plugins: [...common.plugins, { name: 'node-url', setup: (b) => b.onResolve({ filter: /^whatwg-url$/ }, () => ({ path: new URL('./stubs/whatwg-url.js', import.meta.url).pathname })) }],
    }),
  );
}
if (existsSync('webview/main.ts')) {
  jobs.push(
    build({
      ...common,
      platform: 'browser',
      format: 'iife',
      target: 'es2022',
      entryPoints: { webview: 'webview/main.ts' },
      outdir: 'dist',
      loader: { '.css': 'text' },
    }),
  );
}
await Promise.all(jobs);
