// The Kubernetes release the lab is (a leaf module: the lab server's /version and the kubelet's
// User-Agent headers, kube-probe/<major>.<minor> and kube-lifecycle/<major>.<minor>, say the same).
// 1.33 is the newest kubectl on the lab's machines, and `/usr/bin/kubectl` there dispatches to the
// kubectl whose minor matches the server's.
export const KUBERNETES_MAJOR = '1';
export const KUBERNETES_MINOR = '33';
export const KUBERNETES_GIT_VERSION = 'v1.33.1';
