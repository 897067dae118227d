/* A minimal sandbox ("pause") process for offline use: it holds the pod's namespaces, reaps
   zombies when it is PID 1 of a shared PID namespace, and exits cleanly on SIGINT/SIGTERM. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_term(int sig) { (void)sig; _exit(0); }

static void on_child(int sig) {
  (void)sig;
  while (waitpid(-1, NULL, WNOHANG) > 0) {
  }
}

int main(int argc, char **argv) {
  if (argc > 1 && argv[1][0] == '-' && argv[1][1] == 'v') {
    printf("podlab-pause 1.0\n");
    return 0;
  }
  if (getpid() != 1) fprintf(stderr, "Warning: pause should be the first process\n");
  struct sigaction term = {.sa_handler = on_term};
  struct sigaction chld = {.sa_handler = on_child, .sa_flags = SA_NOCLDSTOP};
  if (sigaction(SIGINT, &term, NULL) < 0 || sigaction(SIGTERM, &term, NULL) < 0 ||
      sigaction(SIGCHLD, &chld, NULL) < 0)
    return 1;
  for (;;) pause();
  return 42;
}
