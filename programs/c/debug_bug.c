/* A buffer filled under #ifdef DEBUG: only the debug build writes past
   the end (the loop bound is the debug size). `check debug_bug.c` is safe,
   `check -D DEBUG debug_bug.c` finds the out-of-bounds write. */
#include <assert.h>
#include <stddef.h>

#define LEN 4
#ifdef DEBUG
#define FILL (LEN + 1)
#else
#define FILL LEN
#endif

int buf[LEN];

int main(void) {
  for (size_t i = 0; i < FILL; i++)
    buf[i] = (int)i;
  assert(buf[LEN - 1] == LEN - 1);
  return 0;
}
