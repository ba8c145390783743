// An unknown function that returns a pointer: `NULL` or a new object of
// any values, so a result used without a check may be `NULL`.
#include <stddef.h>

char *lookup(const char *key);

int main(void) {
  char *home = lookup("home");
  if (home != NULL && home[0] == '/')
    return 1;
  char *user = lookup("user");
  return user[0];
}
