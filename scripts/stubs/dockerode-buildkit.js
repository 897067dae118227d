// Build-time stand-in for dockerode's lib/buildkit.js (BuildKit image builds, protobuf). Pod Lab
// never builds images; see scripts/build.mjs.
module.exports = new Proxy({}, {
  get() {
    throw new Error('BuildKit builds are not included in Pod Lab');
  },
});
