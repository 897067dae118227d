// How the panel writes a container's command and args: what the container really runs. When
// `command` is set, the image's ENTRYPOINT *and* CMD are ignored (the kubelet gives Docker an
// Entrypoint and no Cmd), so empty args are none, not the image's CMD.
export function commandText(command: readonly string[]): string {
  return command.length ? JSON.stringify(command) : '(image ENTRYPOINT)';
}

export function argsText(command: readonly string[], args: readonly string[]): string {
  if (args.length) return JSON.stringify(args);
  return command.length ? '(none: command is set, so the image CMD is not used)' : '(image CMD)';
}
