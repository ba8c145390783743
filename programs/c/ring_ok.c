/* A ring buffer used correctly: every push checks for room, every pop
   for an element. Safe. */
#include <assert.h>
#include "ring.h"

int main(void) {
  struct ring r;
  r.head = 0;
  r.tail = 0;
  int pushed = 0;
  for (int k = 0; k < 20; k++) {
    uint8_t v = __VERIFIER_nondet_uchar();
    if (!ring_full(&r)) {
      r.data[r.head] = v;
      r.head = NEXT(r.head);
      pushed++;
    } else if (!ring_empty(&r)) {
      r.tail = NEXT(r.tail);
      pushed--;
    }
    assert(pushed >= 0 && pushed < RING_SIZE);
  }
  return 0;
}
