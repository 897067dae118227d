// Build-time stand-in for dockerode's lib/session.js (gRPC sessions, used only by BuildKit image
// builds). Pod Lab never builds images; leaving gRPC and protobuf out of the bundles saves load time.
module.exports = function withSession(_docker, _auth, handler) {
  handler(new Error('BuildKit sessions are not included in Pod Lab'));
};
