// A pointer to a struct that may be null is read through.
#include <stddef.h>

struct config {
  int level;
  int retries;
};

static struct config defaults = {1, 3};

struct config *lookup(int key) {
  if (key == 0)
    return &defaults;
  return NULL;
}

int main(int argc, char **argv) {
  struct config *c = lookup(argc - 1);
  return c->retries;
}
