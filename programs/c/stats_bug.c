/* Uses stats.h's window_sum, whose loop reads one element past the
   window: the report names stats.h, line 10. */
#include <stdint.h>
#include "stats.h"

int samples[WINDOW];

int main(void) {
  for (int i = 0; i < WINDOW; i++)
    samples[i] = __VERIFIER_nondet_int() % 100;
  int32_t total = window_sum(samples, WINDOW);
  return total > 0;
}
