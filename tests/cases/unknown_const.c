// Unknown functions given pointers: what a `const` pointer points to is
// unchanged; a struct it may change is checked before use.
#include <assert.h>

struct cfg {
  int level;
  int size;
};

void log_msg(const char *msg);
int read_config(struct cfg *c);

int main(void) {
  char name[4] = "abc";
  struct cfg c = {1, 2};
  int limits[3] = {5, 10, 20};
  log_msg("starting");
  log_msg(name);
  assert(name[0] == 'a');
  if (read_config(&c) != 0)
    return 1;
  if (c.level < 0 || c.level > 2)
    return 1;
  return limits[c.level];
}
