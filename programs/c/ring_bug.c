/* The same ring buffer, with an off-by-one wrap: the index is reset only
   when it passes RING_SIZE, so one store lands one past the array
   (declared in ring.h). An out-of-bounds write on line 14. */
#include "ring.h"

int main(void) {
  struct ring r;
  r.head = 0;
  r.tail = 0;
  for (int k = 0; k < 20; k++) {
    uint8_t v = __VERIFIER_nondet_uchar();
    if (ring_full(&r))
      r.tail = NEXT(r.tail);
    r.data[r.head] = v;
    r.head = r.head + 1;
    if (r.head > RING_SIZE)
      r.head = 0;
  }
  return 0;
}
