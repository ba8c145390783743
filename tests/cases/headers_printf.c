// Ordinary C: headers, a macro, #ifdef, printf and a string function.
#include <stdio.h>
#include <string.h>

#define LIMIT 8
#ifdef DEBUG
#define LOG(x) printf("%d\n", x)
#else
#define LOG(x)
#endif

int main(void) {
  const char *name = "sensor";
  size_t len = strlen(name);
  int buf[LIMIT];
  for (size_t i = 0; i < len && i < LIMIT; i++) {
    buf[i] = name[i];
    LOG(buf[i]);
  }
  printf("%s has %zu letters\n", name, len);
  return 0;
}
