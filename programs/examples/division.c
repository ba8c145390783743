/* division.c -- `/` and `%`, hex literals, `unsigned`, `-=`, and calls
 * inside expressions.
 * Bug: average() divides by its second argument, the input n, so the
 * division on line 11 fails (division by zero) when n == 0. For every
 * n > 0 the program ends without error (n is unsigned, so never < 0). */
#include <stdlib.h>

unsigned int total = 0x40;

int average(int sum, int count) {
  return sum / count;
}

int low_digit(unsigned int v) {
  return v % 0x10;
}

int main() {
  unsigned int n;
  int avg = average(total, n) + low_digit(n);
  total -= avg;
  return 0;
}
