// A setting refused at start-up (a flag, --runtime-config, --controllers): the host prints its
// message and stops, as kube's binaries do on a bad flag.
export class StartupError extends Error {}
